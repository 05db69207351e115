"""Speaking to the user: render (text, JSON, Markdown), explain (an entry's templates filled with
the user's values), tensor_notes, prompt (a request for help), report (the JSON's typed shape),
show (one entry in full), wrap (to the terminal's width), i18n and cli_zh (the two languages) and
optional (what to install when an optional part is missing). It imports diagnoser.knowledge and
diagnoser.text only."""
