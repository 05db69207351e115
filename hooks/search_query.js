// Prepended to Material's search worker by hooks/kb_pages.py; the worker passes every query
// through tdPlainQuery before lunr sees it. What people type into the guide's search box is a
// pasted message, not a lunr query: quotes ('key', "fc.weight") must not make words required,
// and brackets, colons, carets and tildes ("[rank2]:", "[2, 512, 1]", "~/x") must never give
// "Invalid query". So the query becomes plain words: split where the index splits its text (the
// search plugin's separator), lunr's operators dropped, paths and bare numbers (one machine's
// values, in no page) left out. Every word but the last must match a word of the index exactly:
// with a wildcard on each of 30 pasted words, common prefixes ("exp" -> "expected", "export")
// outweigh the message's own words; the last word keeps it, as it may still be being typed.
// Chinese runs are left whole for Material's own segmentation.
function tdPlainQuery(query) {
  const separator = lunr.tokenizer.separator
  const words = []
  for (const token of query.split(/\s+/)) {
    // a path (/usr/lib/..., C:\Users\...) names someone's machine, not the error
    if (/[\\/].*[\\/]/.test(token)) continue
    for (const piece of token.split(separator)) {
      const parts = piece.match(/\p{sc=Han}+|[^\p{sc=Han}'"“”‘’`+\-:~^*\\{}<>]+/gu) || []
      for (const part of parts) {
        const word = part.replace(/^[.,;!?]+|[.,;!?]+$/g, "")
        if (/\p{sc=Han}/u.test(word) || /\p{L}{2}/u.test(word)) words.push(word)
      }
    }
  }
  return words
    .map((word, i) => /\p{sc=Han}/u.test(word) || i === words.length - 1 ? word : `${word}~0`)
    .join(" ")
}
