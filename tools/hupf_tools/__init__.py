"""hupf's Python tools: traffic identification (traces, MATADOR training, HK-IPG evaluation)."""
