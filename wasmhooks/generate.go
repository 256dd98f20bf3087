package wasmhooks

// The committed modules in testdata are rebuilt from their sources with go generate. -trimpath
// and -ldflags='-s -w' keep them small and reproducible, so rebuilding with the same Go version
// changes no bytes.
//
//go:generate -command wasm env GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath "-ldflags=-s -w"
//go:generate wasm -o testdata/disposable-email.wasm ./examples/disposable-email
//go:generate wasm -o testdata/vat-number.wasm ./examples/vat-number
//go:generate wasm -o testdata/loop.wasm ./testdata/src/loop
//go:generate wasm -o testdata/hog.wasm ./testdata/src/hog
//go:generate wasm -o testdata/trap.wasm ./testdata/src/trap
//go:generate wasm -o testdata/garbage.wasm ./testdata/src/garbage
//go:generate wasm -o testdata/noalloc.wasm ./testdata/src/noalloc
//go:generate wasm -o testdata/badimport.wasm ./testdata/src/badimport
//
// The modules in testdata/limits, each over one limit of the pre-scan, are written byte by
// byte by the program beside them.
//
//go:generate go run ./testdata/limits testdata/limits
