package codegen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/codegen/codegentest"
	"cms/content/contenttest"
)

// testSite opens testdata/site.txt (every field type, sets, every definition kind) and loads it.
func testSite(t *testing.T) (*Site, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "site.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := contenttest.WriteSite(t, string(raw))
	st := contenttest.OpenStore(t, dir)
	return Load(st, "/api/public", "/api/graphql"), dir
}

func generate(t *testing.T, s *Site) []File {
	t.Helper()
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fileText(t *testing.T, files []File, path string) string {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			return string(f.Data)
		}
	}
	t.Fatalf("no generated file %s", path)
	return ""
}

// TestGenerateIsDeterministic: two runs over the same definitions (loaded twice, so map order
// and load order differ) give byte-identical files.
func TestGenerateIsDeterministic(t *testing.T) {
	s1, _ := testSite(t)
	s2, _ := testSite(t)
	a, b := generate(t, s1), generate(t, s2)
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("run 2 differs at %s", a[i].Path)
		}
	}
}

func TestTypeScriptTypes(t *testing.T) {
	s, _ := testSite(t)
	files := generate(t, s)
	types := fileText(t, files, "types.ts")
	for _, want := range []string{
		`export interface ArticleFields {`,
		`  category: "news" | "how-to" | "review";`, // required select: a union, not optional
		`  tags?: Array<"Alpha" | "Beta" | "a" | "b">;`,
		`  blocks?: Array<HeroSet | QuoteSet>;`, // blocks without sets: every is_block fieldset
		`  links?: Array<LinkSet>;`,
		`  _type: "link";`,
		`  gallery?: string[];`,
		`  hero?: string;`,
		`  "2fa code"?: string;`,
		`  /** Summary — One sentence; shown in lists. Not * / a comment end — Field type text. */`,
		`export type BlogEntry = Entry<ArticleFields>;`,
		`export type CaseStudiesEntry = Entry<CaseStudiesFields>;`,
		`export type NewsEntry = Entry<Record<string, unknown>>;`,
		`export type SiteGlobal = SiteGlobalFields;`,
		`export type ContactFormValues = ContactFormFields;`,
		`export type MainNavigationItem = NavigationItemBase & Partial<MainNavigationFields> & { children?: MainNavigationItem[] };`,
		`export type TopicsTerm = TermBase<TopicTermFields>;`,
	} {
		if !hasLine(types, want) {
			t.Errorf("types.ts lacks the line\n%s", want)
		}
	}
	if strings.Contains(types, "  title: string;\n  /** Summary") {
		t.Error("the entry title is metadata; it must not be a data field")
	}
	gql := fileText(t, files, "graphql.ts")
	for _, want := range []string{"export async function getBlogBySlug(", "export async function listBlogs(", "export async function getNewsBySlug(", "export async function listNewsList(", "export async function listCaseStudiesList(", "  _2fa_code?: string;", "  contact_email?: string;", "  rating?: number;", "export interface BlogFilter {"} {
		if !strings.Contains(gql, want) {
			t.Errorf("graphql.ts lacks %s", want)
		}
	}
}

// TestTypeScriptCompiles runs tsc --strict over the output and a file that uses it as an
// application would: the discriminated unions narrow on _type, a select takes only its options,
// the zod schema parses, the file client and GraphQL helpers type-check.
func TestTypeScriptCompiles(t *testing.T) {
	tools := codegentest.Tools(t)
	s, _ := testSite(t)
	dir := t.TempDir()
	writeFiles(t, dir, generate(t, s))
	usage := `import { articleFieldsSchema, createClient, listBlogs, getBlogBySlug, configureGraphQL, validateValues, articleFieldsSpec } from "./index";
import type { ArticleFields, BlogEntry, SiteGlobal, MainNavigationItem, TopicsTerm, ContactFormValues } from "./index";

export function heading(a: ArticleFields): string {
  let out = a.category;
  for (const b of a.blocks ?? []) {
    if (b._type === "hero") out += b.heading;
    else out += b.text;
  }
  return out;
}
// @ts-expect-error a select takes only its options
export const bad: ArticleFields = { category: "other" };
export const ok: ArticleFields = { category: "news", links: [{ _type: "link", label: "x" }] };
export const entryOk = articleFieldsSchema.parse({ ...ok, title: "A title" }).title;
export const parsed = articleFieldsSchema.safeParse(ok);
export const errs: Record<string, string[]> = validateValues(articleFieldsSpec, { category: 3 });
export async function load(): Promise<string[]> {
  const c = createClient({ root: ".", parseYaml: (s: string) => JSON.parse(s) as unknown });
  const page = await c.list("blog", { sort: "-createdAt", limit: 5 });
  const one: BlogEntry | null = await c.get("blog", "x");
  configureGraphQL({ endpoint: "/api/graphql", token: "t" });
  const g = await listBlogs({ sort: "title", order: "desc", limit: 2 });
  const b = await getBlogBySlug("x");
  return page.data.map((e) => String(e.data.category)).concat(g.map((x) => String(x.title)), [String(one?.title), String(b?.slug)]);
}
export type All = [SiteGlobal, MainNavigationItem, TopicsTerm, ContactFormValues];
`
	if err := os.WriteFile(filepath.Join(dir, "usage.ts"), []byte(usage), 0o644); err != nil {
		t.Fatal(err)
	}
	codegentest.Compile(t, tools, dir, "")
}

func hasLine(s, want string) bool {
	for _, l := range strings.Split(s, "\n") {
		if l == want {
			return true
		}
	}
	return false
}

func writeFiles(t *testing.T, dir string, files []File) {
	t.Helper()
	for _, f := range files {
		codegentest.WriteFile(t, dir, f.Path, f.Data)
	}
}

// TestFixtureSite generates for the shared Madori fixture site: its blueprints (fieldset imports
// and sets included) give TypeScript that compiles under tsc --strict and a valid OpenAPI
// document.
func TestFixtureSite(t *testing.T) {
	dir := contenttest.CopyFixture(t, "madori-site")
	s := Load(contenttest.OpenStore(t, dir), "", "")
	if len(s.Skipped) > 0 {
		t.Logf("blueprints left out: %v", s.Skipped)
	}
	if s.BlueprintCount() == 0 || len(s.Collections) == 0 {
		t.Fatalf("nothing loaded: %d blueprints, %d collections", s.BlueprintCount(), len(s.Collections))
	}
	files := generate(t, s)
	loadDoc(t, []byte(fileText(t, files, "openapi.json")))
	types := fileText(t, files, "types.ts")
	for _, want := range []string{"export interface PagesFields {", "export interface SiteSettingsGlobalFields {", "  social_media?: Array<SocialSet>;", "export type PagesEntry = Entry<PagesFields>;"} {
		if !strings.Contains(types, want) {
			t.Errorf("types.ts lacks %s", want)
		}
	}
	tools := codegentest.Tools(t)
	out := t.TempDir()
	writeFiles(t, out, files)
	codegentest.Compile(t, tools, out, "")
}

// TestNameClash: two handles that give one TypeScript name make generation fail, naming both,
// instead of writing output that does not compile.
func TestNameClash(t *testing.T) {
	s, _ := testSite(t)
	bp := *s.Blueprints["collections"][0]
	bp.Handle = "case_studies" // CaseStudiesFields, as the blueprint case-studies
	s.Blueprints["collections"] = append(s.Blueprints["collections"], &bp)
	_, err := Generate(s)
	if err == nil || !strings.Contains(err.Error(), "blueprint collections/case-studies and blueprint collections/case_studies both give the name CaseStudiesFields") {
		t.Fatalf("err = %v", err)
	}
}
