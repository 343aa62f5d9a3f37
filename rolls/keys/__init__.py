"""The server's public keys, published (docs/verifiable-dice.md): a page, its JSON, and the
standalone verifier to check an export against them."""
