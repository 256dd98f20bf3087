package codegen

// Routes documents every route of the HTTP API, one line each, in the route tables' pattern
// syntax ("METHOD /path/{param}", "{name...}" for the rest of a path). The OpenAPI document
// (Document) is built from it, the server serves that document, and two tests hold it to the
// server: runtime/groups fails naming any route of a group's table missing here, and the
// black-box tests check every request and response against the document (webtest.Do).
//
// To document a new route, add a line: its pattern, tag, summary, who may call it, the request
// body schema (a component name, "" for none), and its responses (status: component name, see
// the schema vocabulary in openapi.go). Errors always answer with the Error envelope.
var Routes = []Route{
	// health
	{"GET /api/health/live", "health", "Liveness: the process answers", Public, "", ok("Health")},
	{"GET /api/health/ready", "health", "Readiness: the store and caches, with details", Public, "", resp{200: "Health", 503: "Health"}},

	// the public website (handlers/site): every path no other group claims
	{"GET /", "site", "The home page of the request's site", Public, "", resp{200: "html", 304: ""}},
	{"HEAD /", "site", "The home page's headers", Public, "", resp{200: "", 304: ""}},
	{"GET /{path...}", "site", "A page: an entry or term by its route, else the 404 page (HEAD too)", Public, "", resp{200: "html", 304: "", 404: "html"}},
	{"GET /sitemap.xml", "site", "The site's sitemap (an index with numbered parts beyond 50,000 URLs)", Public, "", resp{200: "xml", 304: "", 404: "plain"}},
	{"GET /robots.txt", "site", "robots.txt of the request's site", Public, "", resp{200: "plain", 404: "plain"}},
	{"GET /humans.txt", "site", "humans.txt of the request's site", Public, "", resp{200: "plain", 404: "plain"}},
	{"GET /_theme/theme.css", "site", "The built-in theme's stylesheet", Public, "", resp{200: "css", 304: ""}},
	{"GET /_social/{path...}", "site", "A page's generated social image (seo.socialImages): /_social/{page path}.png, /_social/_home.png for /", Public, "", resp{200: "png", 304: "", 404: "html"}},

	// public read API ({public.basePath}, default /api/public)
	{"GET /api/public/entries/{collection}", "public", "Published entries of a collection: limit, offset, sort, filter", Public, "", resp{200: "PublicEntryList", 304: ""}},
	{"GET /api/public/entries/{collection}/{slug}", "public", "One published entry", Public, "", resp{200: "data:PublicEntry", 304: ""}},
	{"GET /api/public/assets/{path...}", "public", "An uploaded file", Public, "", resp{200: "file", 304: "", 206: "file"}},
	{"GET /assets/{path...}", "public", "An uploaded file", Public, "", resp{200: "file", 304: "", 206: "file"}},
	{"GET /api/public/search", "public", "Full-text search of published entries: q, collection, limit, offset (BM25, highlighted snippets)", Public, "", resp{200: "Object", 304: ""}},
	{"GET /api/public/collections", "public", "Collection definitions that opt in with public: true (public fields only)", Public, "", resp{200: "data:array", 304: ""}},
	{"GET /api/public/globals/{handle}", "public", "A public global's values", Public, "", resp{200: "data:Object", 304: ""}},
	{"GET /api/public/navigation/{handle}", "public", "A public navigation tree, published targets only, with resolved URLs", Public, "", resp{200: "data:Object", 304: ""}},
	{"GET /api/public/taxonomies/{handle}", "public", "A public taxonomy's terms", Public, "", resp{200: "data:array", 304: ""}},
	{"GET /api/public/taxonomies/{handle}/{slug}", "public", "One term of a public taxonomy", Public, "", resp{200: "data:Object", 304: ""}},
	{"GET /api/public/openapi.json", "public", "This document's public part", Public, "", resp{200: "Object", 304: ""}},

	// auth
	{"POST /api/auth/login", "auth", "Sign in with email and password; sets the session cookie", Public, "LoginRequest", ok("LoginResponse")},
	{"POST /api/auth/logout", "auth", "End the session", Public, "", ok("Success")},
	{"GET /api/auth/validate", "auth", "Whether the session or token is valid", Session, "", ok("Object")},
	{"GET /api/openapi.json", "auth", "This document, whole", Session, "", resp{200: "Object", 304: ""}},

	// users and roles
	{"GET /api/users", "users", "List users", Session, "", ok("data:[]User")},
	{"POST /api/users", "users", "Create a user", Session, "Object", created("data:User")},
	{"GET /api/users/capabilities", "users", "What the caller may do", Session, "", ok("data:Object")},
	{"GET /api/users/me", "users", "The caller", Session, "", resp{200: "data:User", 304: ""}},
	{"PUT /api/users/me", "users", "Change the caller's profile", Session, "Object", ok("data:User")},
	{"DELETE /api/users/me", "users", "Delete the caller's account", Session, "", ok("Object")},
	{"GET /api/users/{id}", "users", "One user", Session, "", resp{200: "data:User", 304: ""}},
	{"PUT /api/users/{id}", "users", "Change a user", Session, "Object", ok("data:User")},
	{"DELETE /api/users/{id}", "users", "Delete a user", Session, "", ok("Object")},
	{"POST /api/users/{id}/password", "users", "Set a user's password", Session, "Object", ok("Object")},
	{"GET /api/users/{id}/sessions", "users", "A user's live login sessions (never a token), the caller's marked current", Session, "", ok("data:array")},
	{"DELETE /api/users/{id}/sessions", "users", "End a user's sessions (one's own: all but the current)", Session, "", ok("data:Object")},
	{"DELETE /api/users/{id}/sessions/{sid}", "users", "End one login session", Session, "", ok("Success")},
	{"GET /api/tokens", "users", "API tokens (never the secrets), with last use", Session, "", ok("data:array")},
	{"POST /api/tokens", "users", "Create an API token; the secret is in this response only", Session, "Object", created("data:Object")},
	{"DELETE /api/tokens/{id}", "users", "Revoke an API token", Session, "", ok("Success")},
	{"GET /api/roles", "users", "List roles", Session, "", ok("data:[]Role")},
	{"POST /api/roles", "users", "Create a role", Session, "Object", created("data:Role")},
	{"GET /api/roles/{handle}", "users", "One role", Session, "", resp{200: "data:Role", 304: ""}},
	{"PUT /api/roles/{handle}", "users", "Change a role", Session, "Object", ok("data:Role")},
	{"DELETE /api/roles/{handle}", "users", "Delete a role", Session, "", ok("Object")},

	// entries and collections
	{"GET /api/collections", "entries", "Collection definitions", Session, "", ok("data:[]Collection")},
	{"GET /api/collections/{handle}", "entries", "One collection definition", Session, "", ok("data:Collection")},
	{"GET /api/collections/{handle}/blueprint", "entries", "The collection's blueprint with the fieldsets its sets use (the CP's editor)", Session, "", ok("Object")},
	{"POST /api/collections/{handle}/markdown", "entries", "Markdown rendered as the site renders it (the CP's preview)", Session, "Object", ok("data:Object")},
	{"GET /api/globals/{handle}/blueprint", "globals", "A global's blueprint with the fieldsets its sets use", Session, "", ok("Object")},
	{"GET /api/navigation/{handle}/blueprint", "navigation", "A navigation's item blueprint with the fieldsets its sets use", Session, "", ok("Object")},
	{"GET /api/taxonomies/{taxonomy}/blueprint", "taxonomies", "A taxonomy's term blueprint with the fieldsets its sets use", Session, "", ok("Object")},
	{"GET /api/entries/{collection}", "entries", "Entries of a collection, drafts included: limit, offset, sort, filter, status", Session, "", resp{200: "EntryList", 304: ""}},
	{"POST /api/entries/{collection}", "entries", "Create an entry", Session, "EntryInput", created("data:Entry")},
	{"GET /api/entries/{collection}/{slug}", "entries", "One entry", Session, "", resp{200: "data:Entry", 304: ""}},
	{"PUT /api/entries/{collection}/{slug}", "entries", "Change an entry (If-Match)", Session, "EntryInput", ok("data:Entry")},
	{"POST /api/entries/{collection}/{slug}/preview", "entries", "A short-lived draft-preview token and URL for one entry", Session, "", ok("data:Object")},
	{"DELETE /api/entries/{collection}/{slug}", "entries", "Delete an entry", Session, "", ok("Object")},

	// SEO operations (handlers/seo)
	{"GET /api/seo/status", "seo", "Which SEO features are on, per site", Session, "", resp{200: "Object"}},
	{"GET /api/seo/sites", "seo", "Site SEO documents, with revisions", Session, "", resp{200: "Object"}},
	{"GET /api/seo/sites/{site}", "seo", "One site's SEO document and revision", Session, "", resp{200: "Object"}},
	{"POST /api/seo/sites/{site}", "seo", "Create a site's SEO document", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"PUT /api/seo/sites/{site}", "seo", "Replace a site's SEO document (expectedRevision: compare-and-swap, 409 on a stale one)", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"DELETE /api/seo/sites/{site}", "seo", "Delete a site's SEO document", Session, "", resp{200: "Object", 204: ""}},
	{"GET /api/seo/sections/{kind}", "seo", "Section SEO documents of collections or taxonomies", Session, "", resp{200: "Object"}},
	{"GET /api/seo/sections/{kind}/{handle}", "seo", "One section's SEO document and revision", Session, "", resp{200: "Object"}},
	{"POST /api/seo/sections/{kind}/{handle}", "seo", "Create a section's SEO document", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"PUT /api/seo/sections/{kind}/{handle}", "seo", "Replace a section's SEO document (compare-and-swap)", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"DELETE /api/seo/sections/{kind}/{handle}", "seo", "Delete a section's SEO document", Session, "", resp{200: "Object", 204: ""}},
	{"POST /api/seo/preview", "seo", "Resolved metadata of a record, and what each layer contributed", Session, "Object", resp{200: "Object"}},
	{"GET /api/seo/redirects", "seo", "Redirects of a site (with files that do not load under meta.problems)", Session, "", resp{200: "Object"}},
	{"POST /api/seo/redirects", "seo", "Create a redirect (422 naming the topology rule it breaks)", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"PUT /api/seo/redirects", "seo", "Create or replace a redirect by id (compare-and-swap)", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"GET /api/seo/redirects/{id}", "seo", "One redirect", Session, "", resp{200: "Object"}},
	{"DELETE /api/seo/redirects/{id}", "seo", "Delete a redirect", Session, "", resp{200: "Object", 204: ""}},
	{"GET /api/seo/not-found", "seo", "Recorded public 404s, most hit first", Session, "", resp{200: "Object"}},
	{"POST /api/seo/not-found/promote", "seo", "Turn a recorded 404 into a redirect", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"DELETE /api/seo/not-found/{opaqueId}", "seo", "Forget a recorded 404", Session, "", resp{200: "Object", 204: ""}},
	{"GET /api/seo/reports", "seo", "Report summaries of a site, newest first", Session, "", resp{200: "Object"}},
	{"GET /api/seo/report", "seo", "The same as GET /api/seo/reports", Session, "", resp{200: "Object"}},
	{"POST /api/seo/reports/run", "seo", "Run an audit of a site now", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"POST /api/seo/report/run", "seo", "The same as POST /api/seo/reports/run", Session, "Object", resp{200: "Object", 201: "Object"}},
	{"GET /api/seo/reports/{id}", "seo", "One full report (latest for the newest)", Session, "", resp{200: "Object"}},

	// git sync
	{"GET /api/git/status", "git", "Git sync: per repository branch, remote (credentials masked), state, counts, last error and commit", Session, "", ok("data:Object")},
	{"POST /api/git/sync", "git", "Commit what is queued now (optionally one repository), and push when configured", Session, "Object", ok("data:Object")},
	{"POST /api/git/retry", "git", "Retry a repository's pending push", Session, "Object", ok("data:Object")},

	// globals, navigation, taxonomies, settings
	{"GET /api/globals", "globals", "Global definitions", Session, "", ok("data:array")},
	{"GET /api/globals/{handle}", "globals", "One global's values", Session, "", resp{200: "data:Object", 304: ""}},
	{"PUT /api/globals/{handle}", "globals", "Change a global (If-Match)", Session, "Object", ok("data:Object")},
	{"GET /api/navigation", "navigation", "Navigation trees", Session, "", ok("data:any")},
	{"GET /api/navigation/{handle}", "navigation", "One navigation tree", Session, "", resp{200: "data:any", 304: ""}},
	{"PUT /api/navigation/{handle}", "navigation", "Replace a navigation tree (If-Match)", Session, "any", ok("data:any")},
	{"GET /api/taxonomies", "taxonomies", "Taxonomy definitions", Session, "", ok("data:[]Taxonomy")},
	{"GET /api/taxonomies/{taxonomy}", "taxonomies", "One taxonomy definition", Session, "", ok("data:Taxonomy")},
	{"GET /api/taxonomies/{taxonomy}/terms", "taxonomies", "Terms of a taxonomy", Session, "", ok("data:[]Term")},
	{"POST /api/taxonomies/{taxonomy}/terms", "taxonomies", "Create a term", Session, "Object", created("data:Term")},
	{"GET /api/taxonomies/{taxonomy}/terms/{slug}", "taxonomies", "One term", Session, "", resp{200: "data:Term", 304: ""}},
	{"PUT /api/taxonomies/{taxonomy}/terms/{slug}", "taxonomies", "Change a term (If-Match)", Session, "Object", ok("data:Term")},
	{"DELETE /api/taxonomies/{taxonomy}/terms/{slug}", "taxonomies", "Delete a term", Session, "", resp{204: ""}},
	{"GET /api/settings", "settings", "Site settings", Session, "", resp{200: "data:Object", 304: ""}},
	{"PUT /api/settings", "settings", "Change the settings (If-Match)", Session, "Object", ok("data:Object")},
	{"GET /api/cache", "settings", "Static page cache statistics (409 DISABLED when off)", Session, "", ok("data:Object")},
	{"POST /api/cache/clear", "settings", "Drop every page of the static page cache", Session, "", ok("data:Object")},
	{"POST /api/cache/warm", "settings", "Request every routed published page so that the static cache holds it", Session, "", ok("data:Object")},

	// assets
	{"GET /api/assets", "assets", "List files and folders", Session, "", ok("data:any")},
	{"POST /api/assets", "assets", "Upload a file (multipart)", Session, "multipart", resp{200: "data:any", 201: "data:any"}},
	{"DELETE /api/assets", "assets", "Delete a file or folder", Session, "", ok("Object")},
	{"POST /api/assets/folders", "assets", "Create a folder", Session, "Object", resp{200: "data:any", 201: "data:any"}},
	{"GET /api/assets/meta", "assets", "A file's metadata", Session, "", ok("data:any")},
	{"GET /api/assets/usage", "assets", "Where a file is used: entries, globals and terms that refer to it", Session, "", ok("data:Object")},
	{"PUT /api/assets/meta", "assets", "Change a file's metadata", Session, "Object", ok("data:any")},
	{"POST /api/assets/move", "assets", "Move or rename a file or folder", Session, "Object", ok("data:any")},
	{"POST /api/assets/upload", "assets", "Upload a file (multipart)", Session, "multipart", resp{200: "data:any", 201: "data:any"}},

	// forms
	{"GET /api/forms", "forms", "Form definitions", Session, "", ok("data:array")},
	{"GET /api/forms/{handle}", "forms", "One form definition with its fields", Session, "", ok("data:Object")},
	{"POST /api/forms/{handle}/submit", "forms", "Submit a form (JSON, urlencoded or multipart)", Public, "form", resp{200: "data:any", 201: "data:any", 303: ""}},
	{"GET /api/forms/{handle}/submissions", "forms", "Submissions of a form, a page at a time", Session, "", ok("data:SubmissionPage")},
	{"GET /api/forms/{handle}/submissions/{id}", "forms", "One submission", Session, "", ok("data:Submission")},
	{"DELETE /api/forms/{handle}/submissions/{id}", "forms", "Delete a submission", Session, "", ok("data:Deleted")},
	{"GET /api/forms/{handle}/export/csv", "forms", "Every submission as CSV", Session, "", ok("csv")},
	{"GET /api/forms/{handle}/export/json", "forms", "Every submission as JSON", Session, "", ok("any")},

	// hooks
	{"GET /api/hooks", "hooks", "Installed validation hooks", Session, "", ok("data:array")},
	{"GET /api/hooks/{name}", "hooks", "One hook", Session, "", ok("data:Object")},
	{"PUT /api/hooks/{name}", "hooks", "Install or replace a hook (application/wasm body)", Session, "wasm", resp{200: "data:Object", 201: "data:Object"}},
	{"DELETE /api/hooks/{name}", "hooks", "Remove a hook", Session, "", ok("Object")},

	// GraphQL
	{"POST /api/graphql", "graphql", "A GraphQL query", Session, "GraphQLRequest", ok("GraphQLResponse")},
	{"GET /api/graphql", "graphql", "A GraphQL query in the URL (query, variables, operationName)", Session, "", ok("GraphQLResponse")},

	// Control Panel (HTML)
	{"GET /cp", "cp", "The Control Panel", Public, "", resp{200: "html", 307: "", 308: "", 302: "", 304: ""}},
	{"GET /cp/login", "cp", "The Control Panel's login page", Public, "", resp{200: "html", 304: ""}},
	{"GET /cp/assets/{file...}", "cp", "The Control Panel's static files", Public, "", resp{200: "file", 304: ""}},
	{"GET /cp/{rest...}", "cp", "A Control Panel page", Public, "", resp{200: "html", 307: "", 302: "", 304: ""}},
}

// Route is one documented route.
type Route struct {
	Pattern   string // as in the group's route table
	Tag       string
	Summary   string
	Auth      Auth
	Request   string // request body: a schema name, "multipart", "form", "wasm", or "" for none
	Responses resp   // status -> body: a schema name, "data:Name", "html", "csv", "file", "any", or "" for none
}

// Auth says who may call a route.
type Auth int

const (
	// Public routes need no authentication; they make up the anonymous document.
	Public Auth = iota
	// Session routes need a session cookie or Bearer token (and their permission).
	Session
)

type resp map[int]string

func ok(body string) resp      { return resp{200: body} }
func created(body string) resp { return resp{201: body} }
