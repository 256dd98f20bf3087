package sitegen

import "strconv"

// Definitions written into every generated site.

const collectionYAML = `title: Posts
blueprint: posts
route: /blog/{year}/{month}/{slug}
dated: true
sortDirection: desc
defaultStatus: draft
`

const postsBlueprintYAML = `tabs:
  main:
    display: Post
    fields:
      - handle: title
        field:
          type: text
          display: Title
          required: true
      - handle: category
        field:
          type: select
          display: Category
          options:
            options: [news, guides, releases, opinion, tutorials]
      - handle: featured
        field:
          type: toggle
          display: Featured
          default: false
      - handle: rating
        field:
          type: number
          display: Rating
          options:
            integer: true
          validate: [min:1, max:100]
      - handle: tags
        field:
          type: multiselect
          display: Tags
          options:
            options: [go, markdown, yaml, git, performance, security, design, testing, release, community, tooling, cloud]
      - handle: author_name
        field:
          type: text
          display: Author name
`

const adminRoleYAML = `handle: admin
display: Administrator
permissions:
  - resource: collections
    actions: [view, create, edit, delete, publish]
  - resource: entries
    actions: [view, create, edit, delete, publish]
  - resource: assets
    actions: [view, create, edit, delete]
  - resource: users
    actions: [view, create, edit, delete]
  - resource: globals
    actions: [view, edit]
  - resource: taxonomies
    actions: [view, create, edit, delete]
  - resource: forms
    actions: [view, create, edit, delete]
  - resource: navigation
    actions: [view, create, edit, delete]
  - resource: settings
    actions: [view, edit]
  - resource: git
    actions: [view, edit]
`

const contactFormYAML = `title: Contact
blueprint: contact
honeypot: true
store_submissions: true
`

// contactBlueprintYAML has ten fields of the public form types, with rules on most of them, so
// a submission exercises validation as well as the write.
const contactBlueprintYAML = `tabs:
  main:
    display: Message
    fields:
      - handle: name
        field: {type: text, display: Name, required: true, validate: [min:2, max:80]}
      - handle: email
        field: {type: text, display: Email, required: true, validate: [email]}
      - handle: phone
        field: {type: text, display: Phone, validate: [max:40]}
      - handle: company
        field: {type: text, display: Company, validate: [max:120]}
      - handle: website
        field: {type: text, display: Website, validate: [url]}
      - handle: topic
        field:
          type: select
          display: Topic
          required: true
          options:
            options: [general, support, sales]
      - handle: budget
        field: {type: number, display: Budget, validate: [min:0, max:1000000]}
      - handle: preferred_date
        field: {type: date, display: Preferred date}
      - handle: newsletter
        field: {type: toggle, display: Newsletter, default: false}
      - handle: message
        field: {type: markdown, display: Message, required: true, validate: [min:10, max:2000]}
`

// ContactSubmission returns a valid submission of the generated contact form (ten fields),
// varied by i.
func ContactSubmission(i int) map[string]any {
	return map[string]any{
		"name":           "Visitor " + strconv.Itoa(i),
		"email":          "visitor" + strconv.Itoa(i) + "@example.com",
		"phone":          "+1 555 0100",
		"company":        "Example Ltd",
		"website":        "https://example.com/",
		"topic":          [...]string{"general", "support", "sales"}[i%3],
		"budget":         1000 + i%5000,
		"preferred_date": "2026-06-01",
		"newsletter":     i%2 == 0,
		"message":        "Hello, this is benchmark message number " + strconv.Itoa(i) + ". Please ignore it.",
	}
}
