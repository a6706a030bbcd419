"""`paiju serve`'s demo: bot players at a few tables, as a platform would drive them."""
