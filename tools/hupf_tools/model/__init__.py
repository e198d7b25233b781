"""Reference models of the hupf P4 pipeline's stateful parts (HK-IPG, MATADOR features)."""
