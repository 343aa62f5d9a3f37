"""Messages in the log (docs/messages.md): what members say at the table, in or out of character,
to everyone, to the GM or as a whisper; and their corrections."""
