// Package content holds the domain of the service: entries, collections, blueprints, users,
// roles, globals, navigations, forms and taxonomies, and the one error type every layer shares.
// It knows nothing of HTTP; the store that reads and writes these on disk lives in
// content/fsstore.
package content
