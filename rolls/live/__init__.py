"""The live pages' side of live events (docs/live.md): the event stream's view (stream.py), the
reads its streams share (shared.py), a page's stream address (pages.py) and the signals that end
a user's streams (signals.py). The transport itself, publish and the hub, is the ``live``
package, below every app."""
