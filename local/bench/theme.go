package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// themeFiles is the website theme the page scenario renders: a layout with a menu of entry
// references and a global in the footer, and an entry page with a 5-item list of the latest
// posts (docs/templates.md).
var themeFiles = map[string]string{
	"resources/views/layout.html": `<!doctype html><html lang="{{.Site.Locale}}"><head><meta charset="utf-8">{{seo .}}<link rel="stylesheet" href="{{asset "site.css"}}"></head>
<body><header><a href="{{url "/"}}">{{.Settings.site_name}}</a><nav><ul>{{range nav "main"}}<li><a href="{{.URL}}">{{.Label}}</a></li>{{end}}</ul></nav></header>
<main>{{template "main" .}}</main><footer>{{with global "site"}}{{.name}}{{end}}</footer></body></html>
`,
	"resources/views/posts.html": `<article><h1>{{.Entry.Title}}</h1><p><time datetime="{{isoDate .Entry.CreatedAt}}">{{date .Entry.CreatedAt}}</time></p>{{.Entry.HTML}}</article>
<aside><h2>Latest</h2><ul>{{range entries "posts" "limit=5&sort=-createdAt"}}<li><a href="{{.URL}}">{{.Title}}</a></li>{{end}}</ul></aside>
`,
	"resources/navigations/main.yaml": "title: Main\n",
	"resources/globals/site.yaml":     "title: Site\n",
	"content/globals/site.yaml":       "name: Bench site\n",
}

// writeTheme adds the theme and a menu of six published entries to a generated site (a site
// generated earlier gets it too; the files are rewritten each run).
func writeTheme(dir string, f siteFacts) error {
	var nav strings.Builder
	nav.WriteString("items:\n  - label: Home\n    url: /\n")
	for i := 0; i < 6 && len(f.published) > 0; i++ {
		fmt.Fprintf(&nav, "  - label: Post %d\n    entry: posts/%s\n", i, f.published[i*len(f.published)/6])
	}
	files := map[string]string{"content/navigation/main.yaml": nav.String()}
	for k, v := range themeFiles {
		files[k] = v
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
