package navigation

import (
	"cms/content/access"
	"cms/handlers/web"
)

// storeFor returns the store whose writes name p's user as their editor (git sync).
func (a *api) storeFor(p *access.Principal) Store { return web.As(a.Store, a.As, p) }
