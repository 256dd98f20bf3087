// Package validate is the one rule engine behind form submissions, entry saves and globals: it
// checks submitted values against a blueprint's fields, decides which fields are visible, coerces
// the strings of HTML form posts into field types, and checks blueprints themselves for mistakes.
//
// # Values
//
// [Values] checks every field (it is not fail-fast) and returns messages per field handle. A field
// is checked in this order; a failure in steps 2 to 4 ends its checks, steps 5 and 6 report every
// failure, and step 7 runs only when nothing failed before it:
//
//  1. Fields of type hidden, fields hidden by their visibility rule, fields without a handle and
//     repeats of a handle are skipped. With [Options.Partial], fields absent from the values are
//     skipped too.
//  2. An absent or nil value fails a required field ("This field is required") and passes any other.
//  3. The value must have the field type's shape ("Must be a string", "Must be a number",
//     "Must be true or false", "Must be a list", ...).
//  4. A blank value (a string that is empty or only white space, an empty list, rich text without
//     visible text) fails a required field and passes any other without further checks, so an
//     optional field left empty in a form is never told it is too short.
//  5. Type-specific checks: slug format, select and multiselect options, asset cardinality
//     (options.max_files, options.min_files), whole numbers (options.integer), no empty items in
//     entries, taxonomy and asset lists.
//  6. The rules of field.validate, in order; every failing rule adds a message.
//  7. Hook rules, in order, stopping at the first hook that fails.
//
// # Rules
//
// A rule is "name" or "name:param"; the name ends at the first colon. Rules measure a value by the
// field type's shape: text (text, slug, markdown, code, yaml, date, select, and tiptap by its
// visible text) is measured in characters (runes), numbers by value, lists (multiselect, entries,
// taxonomy, asset, replicator, grid, blocks) by item count. A rule that does not apply to the
// field's shape is ignored; [CheckBlueprint] warns about it.
//
//	required           not absent, nil or blank            This field is required
//	min:N              text/number/list                    Must be at least N characters | Must be at least N | Must have at least N items
//	max:N              text/number/list                    Must be at most N characters | Must be at most N | Must have at most N items
//	size:N             text/number/list                    Must be exactly N characters | Must be exactly N | Must have exactly N items
//	numeric_range:a,b  number, a <= n <= b                 Must be at least a | Must be at most b
//	regex:PAT          text, Go RE2, unanchored            Must match pattern PAT
//	url                text, absolute http(s) with a host  Must be a valid URL
//	email              text, local@domain.tld              Must be a valid email address
//	in:a,b,c           text/number/list items              Must be one of: a, b, c | Each item must be one of: a, b, c
//	not_in:a,b,c       text/number/list items              Must not be one of: a, b, c | Must not include any of: a, b, c
//	alpha              text, letters only                  Must contain only letters
//	alpha_num          text, letters and digits            Must contain only letters and numbers
//	alpha_dash         text, letters, digits, - and _      Must contain only letters, numbers, dashes, and underscores
//	lowercase          text                                Must be lowercase
//	uppercase          text                                Must be uppercase
//	integer            text (digits) or number (integral)  Must be a whole number
//	numeric            text (a decimal number) or number   Must be a number
//	date               text, ISO 8601 date or date-time    Must be a valid date
//	after:DATE         text date strictly after DATE       Must be a date after DATE
//	before:DATE        text date strictly before DATE      Must be a date before DATE
//	accepted           toggle true, or text yes/on/1/true  Must be accepted
//	hook:NAME[:ARG]    any but hidden, a WASM hook         the hook's message, or Is not valid
//
// A toggle that is false is a value, so required passes it; a consent box wants accepted.
// Letters and digits are Unicode letters (with combining marks) and decimal digits. Dates
// without a zone are taken as UTC, and a date alone as its midnight. Lists of options in
// messages are shortened to "Must be one of the allowed options" past ten entries.
//
// Rules with an unknown name or a bad parameter (a non-number for min, an invalid regular
// expression) are blueprint mistakes: [CheckBlueprint] reports them and [Values] ignores them.
//
// # Hooks
//
// A hook rule asks [Options.Hooks] to judge the value. A hook that says the value is invalid adds
// its message. A hook that traps, times out or answers nonsense is the site's problem, not the
// submitter's: the field fails with "Could not be validated" and the cause is logged. A hook that
// is not installed, or no runner at all, refuses the whole request with a *content.Error of Kind
// content.Unavailable and Code HOOK_UNAVAILABLE, because nothing the submitter does can fix it.
package validate
