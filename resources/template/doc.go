// Package template resolves the `{{ expr }}` and `${ expr }` expressions of
// CCM manifests with expr-lang (github.com/expr-lang/expr) and renders Jet
// templates. It implements resources.Templates.
//
// Syntax, as upstream CCM's lexer:
//   - `{{ expr }}` ends at the first `}}` outside a quoted string; `${ expr }`
//     ends at the `}` balancing its `{`, so `${ map(xs, { # + 1 }) }` works.
//   - Inside an expression '…' and "…" are strings with backslash escapes
//     and `…` is a raw string; delimiters inside them do not count.
//   - `${{ x }}` is a literal `$` followed by the expression `{{ x }}`.
//   - An opener without its closer is literal text (`costs $5`, `{{ x`).
//   - A string that is exactly one expression, surrounding whitespace
//     aside, keeps the expression's type (`"${ 1 + 2 }"` is the integer 3);
//     otherwise each value is printed into the text (nil prints as "").
//
// Escapes (not in upstream CCM, which cannot write a literal `${`):
//   - `$${` is a literal `${`: the exec command `echo $${HOME}` reaches the
//     shell as `echo ${HOME}`.
//   - `{{{` is a literal `{{`: `{{{ not a template }}` is the text
//     `{{ not a template }}`. Write an expr map literal with a space:
//     `{{ {"a": 1} }}`.
//
// Expressions see the variables Facts, Data and Environ (also spelled
// facts, data and environ) and these functions besides expr's built-ins:
//   - lookup(key[, default]): the value at a gjson-style path over
//     {facts, data, environ}, such as 'facts.host.info.platformFamily' or
//     'data.packages.0'; a missing key without a default is ErrMissingKey.
//   - readFile(path), file(path): a file's content; relative paths are read
//     from the manifest's directory.
//   - template(s): a name ending in .templ is read and resolved as an
//     expression template, one ending in .jet is rendered with Jet, other
//     text is resolved itself.
//   - jet(body[, left, right]): Jet rendering, delimiters [[ ]] by default;
//     a body ending in .jet names a file.
//   - kvGet(bucket, key[, default]): a NATS key-value entry through
//     Env.KV; a JSON object or array is decoded, anything else is text.
//
// Every evaluation (a string resolved at the top level, with the
// template() and jet() calls it makes) has a budget: no value above
// MaxValueSize, at most MaxWork bytes made in all, at most MaxEvalTime.
// Expressions are compiled with a visitor (meter) that routes `+`, every
// call, builtin, literal list or map and every predicate body through the
// budget; repeat, replace, join, split, string and toJSON are replaced by
// versions that refuse an oversized result before making it; expr's own
// memory budget bounds how many turns loops make. A Jet render's output,
// the functions it calls and its ints() loops are metered too, and Jet
// templates whose blocks yield themselves, or that use try, are refused.
// Files are read through package safepath: regular files of at most
// MaxFileSize bytes.
//
// Compiled expressions and parsed Jet templates are cached for the whole
// process, keyed by their text and the shape of their environment, so a
// manifest reloaded in watch mode compiles nothing twice.
package template
