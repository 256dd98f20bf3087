//go:build !race

package cpbrowser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"gopkg.in/yaml.v3"
)

// center scrolls the element into view and returns the middle of its box in viewport pixels.
func (b *browser) center(sel string) (x, y float64) {
	b.t.Helper()
	b.run(chromedp.WaitVisible(chromedp.CSS(sel)))
	xy := eval[[]float64](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	return xy[0], xy[1]
}

// drag drags the element from onto the element to as a person does with the mouse: button down
// on the source, a move that starts the drag (the page's dragstart runs and fills the
// DataTransfer), then dragenter, dragover and drop at the target with that data, and the button
// up. Chrome hands the drag to the test (Input.setInterceptDrags) so that it does not wait for a
// real window system's drag loop; the page sees the events the browser would fire. hovering,
// if not nil, runs while the drag is over the target, before the drop.
func (b *browser) drag(from, to string, hovering func()) {
	b.t.Helper()
	fx, fy := b.center(from)
	tx, ty := b.center(to)
	ctx, cancel := context.WithTimeout(b.ctx, guard)
	defer cancel()
	intercepted := chromedp.Events(ctx, input.DragIntercepted)
	call := func(f func(ctx context.Context, t *chromedp.Target) error) chromedp.Action[chromedp.Void] {
		return chromedp.Func(f)
	}
	left := func(p *input.DispatchMouseEventParams) {
		p.Button = input.MouseButtonLeft
		p.Buttons = 1
		p.ClickCount = 1
	}
	err := chromedp.Do(ctx,
		call(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true})
			return err
		}),
		chromedp.MouseEvent(chromedp.MouseMoved, fx, fy),
		chromedp.MouseEvent(chromedp.MousePressed, fx, fy, left),
		chromedp.MouseEvent(chromedp.MouseMoved, fx+8, fy+8, left),
		chromedp.MouseEvent(chromedp.MouseMoved, tx, ty, left),
	)
	if err != nil {
		b.t.Fatalf("drag %s: %v", from, err)
	}
	var data *input.DragData
	for ev, err := range intercepted {
		if err != nil {
			b.shot("failure")
			b.t.Fatalf("drag %s: the browser started no drag: %v", from, err)
		}
		data = ev.Data
		break
	}
	b.dragEvents(ctx, tx, ty, data, input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver)
	if hovering != nil {
		hovering()
	}
	b.dragEvents(ctx, tx, ty, data, input.DispatchDragEventTypeDrop)
	err = chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MouseReleased, tx, ty, func(p *input.DispatchMouseEventParams) { p.Button = input.MouseButtonLeft; p.ClickCount = 1 }),
		call(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
			return err
		}),
	)
	if err != nil {
		b.t.Fatalf("drag %s: %v", from, err)
	}
}

// dragEvents dispatches drag events of a drag carrying data at (x, y).
func (b *browser) dragEvents(ctx context.Context, x, y float64, data *input.DragData, types ...input.DispatchDragEventType) {
	b.t.Helper()
	for _, typ := range types {
		err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: x, Y: y, Data: data})
			return err
		}))
		if err != nil {
			b.t.Fatalf("%s at (%.0f, %.0f): %v", typ, x, y, err)
		}
	}
}

// dropFiles drops files from the disk onto the element, as dragging them from a file manager
// does: the page's drop handler gets them in its DataTransfer.
func (b *browser) dropFiles(sel string, files ...string) {
	b.t.Helper()
	x, y := b.center(sel)
	ctx, cancel := context.WithTimeout(b.ctx, guard)
	defer cancel()
	b.dragEvents(ctx, x, y, &input.DragData{Items: []*input.DragDataItem{}, Files: files, DragOperationsMask: 1},
		input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop)
}

// topLabels returns the labels of the navigation tree's top level, in order.
func (b *browser) topLabels() []string {
	b.t.Helper()
	return eval[[]string](b, `[...document.querySelectorAll('.tree-root > .nav-node > .nav-row .nav-label')].map((e) => e.dataset.label)`)
}

// TestDragAndDrop drives the Control Panel's drag and drop with the mouse: reordering the main
// menu, the depth limit refusing a place while dragging, and uploading a file by dropping it
// on the asset library with its progress shown.
func TestDragAndDrop(t *testing.T) {
	s := startSite(t, "")
	b := newBrowser(t)
	b.expect("/api/git/status")
	b.signIn(s)

	t.Run("navigation", func(t *testing.T) {
		b.t = t
		b.run(chromedp.Navigate(s.url + "/cp/navigation/main"))
		label := func(l string) string { return `.nav-row:has(> .nav-label[data-label="` + l + `"])` }
		b.run(chromedp.WaitVisible(chromedp.CSS(label("Contact"))))
		b.drag(label("Contact"), label("Home"), nil)
		b.waitJS(`document.querySelector('.tree-root .nav-label')?.dataset.label === 'Contact'`)
		if got, want := b.topLabels(), []string{"Contact", "Home", "About", "Blog", "Markdown guide"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("top level after dragging Contact onto Home = %v, want %v", got, want)
		}
		b.shot("navigation-dragged")
		// Contact gets a child (Home), and Welcome goes two levels down, under All posts.
		key := func(l, k string) {
			b.run(chromedp.Focus(chromedp.CSS(`.nav-label[data-label="`+l+`"]`)), chromedp.KeyEvent(k, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		}
		key("Home", kb.ArrowRight)
		key("Welcome", kb.ArrowRight)
		before := eval[string](b, `document.querySelector('.tree-root').textContent`)
		// Contact with its child dropped before Welcome would be three levels deep; max_depth is 2.
		// The place is refused while the item is dragged over it, before any drop.
		b.drag(label("Contact"), label("Welcome"), func() {
			b.waitText(`form.editor .notice`, "Contact cannot go there: this navigation allows 2 levels of nesting.")
			b.waitJS(`document.querySelector('` + label("Welcome") + `').classList.contains('nodrop')`)
			b.shot("navigation-drag-refused")
		})
		if after := eval[string](b, `document.querySelector('.tree-root').textContent`); after != before {
			t.Errorf("the refused drop changed the tree:\n%s\nwant\n%s", after, before)
		}
		// A leaf may go there.
		b.drag(label("Markdown guide"), label("Welcome"), nil)
		b.waitJS(`document.querySelector('.nav-node:has(> .nav-row .nav-label[data-label="All posts"]) > ul > .nav-node .nav-label')?.dataset.label === 'Markdown guide'`)
		if note := b.text(`form.editor .notice`); note != "" {
			t.Errorf("after a drop that worked the notice still says %q", note)
		}
		b.click(`form.editor .actions button[type="submit"]`)
		b.waitText(`form.editor .notice`, "Saved at")
		raw, err := os.ReadFile(filepath.Join(s.dir, "content", "navigation", "main.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		type item struct {
			Label    string
			Children []item
		}
		var doc struct{ Items []item }
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		var outline func([]item) string
		outline = func(list []item) string {
			var parts []string
			for _, it := range list {
				p := it.Label
				if len(it.Children) > 0 {
					p += "(" + outline(it.Children) + ")"
				}
				parts = append(parts, p)
			}
			return strings.Join(parts, ", ")
		}
		want := "Contact(Home), About, Blog(All posts(Markdown guide, Welcome), Forms and hooks)"
		if got := outline(doc.Items); got != want {
			t.Errorf("saved tree = %s, want %s\n%s", got, want, raw)
		}
		b.checkConsole()
	})

	t.Run("upload by dropping a file", func(t *testing.T) {
		b.t = t
		file := filepath.Join(t.TempDir(), "dropped-photo.png")
		// Large enough for the upload to report progress along the way.
		png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 3<<20)...)
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		b.run(chromedp.Navigate(s.url + "/cp/media"))
		b.run(chromedp.WaitVisible(chromedp.CSS(`.dropzone`)))
		// Record the progress bars the page shows, however briefly.
		eval[any](b, `(() => { window.__bars = []; new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) {
			const p = n.querySelector?.('progress'); if (p) window.__bars.push(p.getAttribute('aria-label')); } }).observe(document.querySelector('main'), {childList: true, subtree: true}); return true; })()`)
		b.dropFiles(`.dropzone`, file)
		b.waitText(`main .notice`, "Uploaded dropped-photo.png")
		if bars := eval[[]string](b, `window.__bars`); len(bars) != 1 || bars[0] != "Uploading dropped-photo.png" {
			t.Errorf("progress bars shown = %q, want one for the dropped file", bars)
		}
		got, err := os.ReadFile(filepath.Join(s.dir, "public", "assets", "dropped-photo.png"))
		if err != nil || len(got) != len(png) {
			t.Errorf("uploaded file: %d bytes, %v; want %d", len(got), err, len(png))
		}
		b.run(chromedp.WaitVisible(chromedp.CSS(`.tile[data-path="dropped-photo.png"]`)))
		b.shot("assets-dropped")
		b.checkConsole()
	})
}
