// Package hookrun is the domain side of validation hooks, kept out of the HTTP packages so the
// groups that validate with hooks do not link the upload API: [Runner] runs the hook rules of
// blueprints with the installed modules, [Install] checks and stores a module (the upload API
// and `cms hooks push`), and [Problems] lists forms and blueprints that cannot work.
package hookrun

import (
	"context"
	"errors"
	"fmt"

	"cms/content"
	"cms/content/validate"
	"cms/wasmhooks"
)

// Modules reads installed hook modules.
type Modules interface {
	// HookMeta returns a NotFound error when no hook of that name is installed.
	HookMeta(name string) (*content.Hook, error)
	// HookModule returns the module bytes, or a NotFound error.
	HookModule(name string) ([]byte, error)
}

// Validator runs one hook call.
type Validator interface {
	// Validate asks module m about req; a failure of the guest is an Internal error.
	Validate(ctx context.Context, m wasmhooks.Module, req wasmhooks.Request) (wasmhooks.Response, error)
}

// Runner runs the hook rules of blueprints ([validate.HookRunner]) with the installed modules.
// A hook that is not installed (or was removed while being loaded) is a content.Unavailable
// error with Code HOOK_UNAVAILABLE, so the request is refused with 503; a guest that fails is an
// Internal error, which fails only the field.
type Runner struct {
	modules Modules
	host    Validator
}

var _ validate.HookRunner = (*Runner)(nil)

// NewRunner returns a Runner over installed modules and a WASM host.
func NewRunner(modules Modules, host Validator) (*Runner, error) {
	if modules == nil || host == nil {
		return nil, errors.New("hookrun: NewRunner needs modules and a host")
	}
	return &Runner{modules: modules, host: host}, nil
}

// Installed reports whether a hook of that name is installed.
func (r *Runner) Installed(name string) bool {
	_, err := r.modules.HookMeta(name)
	return err == nil
}

// RunHook implements [validate.HookRunner].
func (r *Runner) RunHook(ctx context.Context, call validate.HookCall) (validate.HookResult, error) {
	const op = "hookrun.RunHook"
	unavailable := func(err error) error {
		return &content.Error{Kind: content.Unavailable, Op: op, Path: call.Name, Code: validate.CodeHookUnavailable,
			Message: fmt.Sprintf("Validation hook %q is not installed", call.Name), Err: err}
	}
	meta, err := r.modules.HookMeta(call.Name)
	if err != nil {
		if content.IsNotFound(err) {
			return validate.HookResult{}, unavailable(err)
		}
		return validate.HookResult{}, err
	}
	var data any
	if call.Data != nil {
		data = call.Data
	}
	resp, err := r.host.Validate(ctx, wasmhooks.Module{
		Name:   call.Name,
		SHA256: meta.SHA256,
		Load:   func() ([]byte, error) { return r.modules.HookModule(call.Name) },
	}, wasmhooks.Request{
		Form:   call.Form,
		Field:  call.Field,
		Value:  call.Value,
		Params: wasmhooks.Params{Arg: call.Arg},
		Data:   data,
		Locale: call.Locale,
	})
	if err != nil {
		if content.IsNotFound(err) {
			return validate.HookResult{}, unavailable(err)
		}
		return validate.HookResult{}, err
	}
	return validate.HookResult{Valid: resp.Valid, Message: resp.Message, Code: resp.Code}, nil
}
