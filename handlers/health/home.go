package health

import (
	"bytes"
	"html/template"
	"net/http"
)

// Home says what GET / links to. Until the public website exists, / answers a small page that
// points a new user at the Control Panel and the APIs instead of a bare 404.
type Home struct {
	CPPath      string // the Control Panel's path; "" when it is off
	PublicPath  string // base path of the public read API, e.g. /api/public
	GraphQLPath string // "" when GraphQL is off
	BasePath    string // prefix of every link (an API Gateway custom-domain mapping); "" = none
}

var homePage = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cms</title>
</head>
<body>
<h1>cms is running</h1>
<p>This page stands in for the public website, which this service does not serve yet.</p>
<ul>
{{- if .CP}}
<li><a href="{{.CP}}">Control Panel</a>: sign in to edit content.</li>
{{- else}}
<li>The Control Panel is off (<code>cp.enabled</code> is false, or the site folder is read-only).</li>
{{- end}}
<li>Public API: <code>GET {{.Public}}/entries/{collection}</code> and <code>GET {{.Public}}/entries/{collection}/{slug}</code> list and read published entries, without signing in.</li>
{{- if .GraphQL}}
<li>GraphQL: <code>POST {{.GraphQL}}</code>, with a session.</li>
{{- end}}
<li><a href="{{.Ready}}">Readiness</a> of the storage folders.</li>
</ul>
<p>The API, the configuration and the CLI (<code>cms help</code>) are described in the README of the cms repository.</p>
</body>
</html>
`))

// home serves GET / (the route exists only when Deps.Home is set).
func (a *api) home(w http.ResponseWriter, r *http.Request) error {
	h := a.Home
	link := func(p string) string {
		if p == "" {
			return ""
		}
		return h.BasePath + p
	}
	var b bytes.Buffer
	if err := homePage.Execute(&b, map[string]string{
		"CP": link(h.CPPath), "Public": link(h.PublicPath), "GraphQL": link(h.GraphQLPath), "Ready": link("/api/health/ready"),
	}); err != nil {
		return err
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Content-Security-Policy", "default-src 'none'")
	hdr.Set("Cache-Control", "no-cache")
	_, err := w.Write(b.Bytes())
	return err
}
