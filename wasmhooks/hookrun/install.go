package hookrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cms/content"
	"cms/wasmhooks"
)

// Store keeps installed hooks.
type Store interface {
	// PutHook installs or replaces a hook and reports whether it replaced one.
	PutHook(h content.Hook, wasm []byte) (bool, error)
}

// Checker vets a module against hook ABI v1.
type Checker interface {
	// Check returns an Invalid error saying what is wrong with a module that fails.
	Check(ctx context.Context, wasm []byte) (wasmhooks.Info, error)
}

// CodeRejected is the code of the error for a module that fails the checks (a 422 over HTTP).
const CodeRejected = "HOOK_REJECTED"

// Install checks a module and, if it passes, stores it as hook name, uploaded by uploader at
// at. It is what PUT /api/hooks/{name} and `cms hooks push` both do. An invalid name is an
// Invalid error; a module that fails the checks an Invalid error with Code HOOK_REJECTED and
// nothing is stored. It reports whether an installed hook was replaced.
func Install(ctx context.Context, st Store, host Checker, name string, wasm []byte, uploader string, at time.Time) (content.Hook, bool, error) {
	const op = "hookrun.Install"
	if !content.ValidHookName(name) {
		return content.Hook{}, false, content.Invalidf(op,
			"Invalid hook name %q: use 1 to 64 lower-case letters, digits, '_' or '-', starting with a letter or digit", name)
	}
	info, err := host.Check(ctx, wasm)
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind == content.Invalid {
			return content.Hook{}, false, &content.Error{Kind: content.Invalid, Op: op, Path: name, Code: CodeRejected,
				Message: "Hook module rejected: " + ce.Message, Details: ce.Details, Err: err}
		}
		return content.Hook{}, false, fmt.Errorf("%s: check %s: %w", op, name, err)
	}
	h := content.Hook{Name: name, SHA256: info.SHA256, Size: int64(info.Size), UploadedBy: uploader,
		UploadedAt: at.UTC().Format("2006-01-02T15:04:05.000Z"), ABIVersion: info.ABIVersion}
	replaced, err := st.PutHook(h, wasm)
	if err != nil {
		return content.Hook{}, false, fmt.Errorf("%s: store %s: %w", op, name, err)
	}
	return h, replaced, nil
}
