"""Reading what users paste: cleanup (undo terminals, prefixes, encodings), parse (every error
and its frames), training_log and symptoms (a log's numbers and what they show), sentence (a
symptom in words), mask and match (the entries that explain it), and facts, the plain data of
what a live process knew. It imports diagnoser.knowledge only."""
