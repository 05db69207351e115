"""The knowledge base, compiled: the entries' schema (pydantic, only when kb/ is compiled), the
cached index a diagnosis reads (index, anchor, anchor_table, records), the caches of compiled
regexes and of the index (regex_cache, user_cache), the groups and the vocabulary of symptom
signals. The bottom layer: it imports nothing of diagnoser.text or diagnoser.speak."""

# It stamps the compiled index; it is pyproject.toml's version (a test keeps the two equal).
__version__ = "0.1.0"
