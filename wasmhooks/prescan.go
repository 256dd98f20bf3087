package wasmhooks

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// The limits of the pre-scan, the check every module passes before wazero sees it (see
// prescan). wazero sizes its buffers by the counts a module declares before it reads what they
// count: a body declaring 2^32-1 locals takes 5 bytes and makes it allocate 4 GiB to decode
// and 32 GiB to compile. Its compiler also takes time that grows with the square of block
// nesting, of branches and of locals read at merging branches (see prescan_code.go), and it
// cannot be stopped inside a function. These limits bound both. Where a browser has a limit
// (data segments, parameters) they take it; the others are several times what the Go examples
// and a 9.4 MB Go program use (TestPrescanRealModules). Modules from TinyGo or Rust were not
// measured. docs/hooks.md lists the limits for hook authors.
const (
	maxTypes        = 10_000        // function types
	maxTypeArity    = 1_000         // parameters, or results, of one function type
	maxImports      = 1_000         // imports
	maxFunctions    = 100_000       // functions the module defines
	maxTables       = 4             // tables, defined and imported
	maxTableSize    = 1 << 20       // elements of a table: its minimum, and its maximum if it grows
	maxGlobals      = 10_000        // globals, defined and imported
	maxExports      = 1_000         // exports
	maxElemSegments = 1_000         // element segments
	maxElements     = 1 << 20       // entries of all element segments
	maxDataSegments = 100_000       // data segments
	maxBodyBytes    = 1 << 20       // bytes of one function's code
	maxLocals       = 10_000        // locals one function declares, besides its parameters
	maxModuleLocals = 1_000_000     // locals all functions declare
	maxNesting      = 10_000        // blocks, loops and ifs open at once in one function
	maxNames        = 200_000       // entries of the name section
	maxFunctionCost = 500_000_000   // estimated compile cost of one function (see prescan_code.go)
	maxModuleCost   = 3_000_000_000 // estimated compile cost of all functions
)

// Names of the limits, as errors and CheckDetails.Limit give them.
const (
	limitTypes        = "function types"
	limitTypeArity    = "parameters or results per function type"
	limitImports      = "imports"
	limitFunctions    = "functions"
	limitTables       = "tables"
	limitTableSize    = "elements per table"
	limitGlobals      = "globals"
	limitExports      = "exports"
	limitElemSegments = "element segments"
	limitElements     = "element segment entries"
	limitDataSegments = "data segments"
	limitBodyBytes    = "bytes of code per function"
	limitLocals       = "locals per function"
	limitModuleLocals = "locals per module"
	limitNesting      = "nested blocks per function"
	limitFunctionCost = "compile cost per function"
	limitModuleCost   = "compile cost per module"
	limitNames        = "name section entries"
	limitMemoryPages  = "memory pages"
)

// moduleStats are the figures of a module that the limits bound.
type moduleStats struct {
	Types, Imports, Functions, Tables, Globals, Exports int
	ElemSegments, Elements, DataSegments, Names         int
	TableSize                                           uint32 // the largest size a table starts at or may grow to
	MaxBodyBytes                                        int
	MaxLocals, ModuleLocals                             uint64
	MaxNesting                                          int
	MaxBlocks                                           uint64 // basic blocks of a function, as wazero's compiler makes them
	MaxFunctionCost, ModuleCost                         uint64 // estimated compile cost
}

// Section ids of the binary format.
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
)

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory", "global",
	"export", "start", "element", "code", "data", "data count"}

// sectionRank orders the non-custom sections as the binary format requires: data count comes
// between element and code.
func sectionRank(id byte) int {
	switch {
	case id == secDataCount:
		return secElement + 1
	case id >= secCode:
		return int(id) + 1
	}
	return int(id)
}

// prescan reads a module's binary, which must begin with the magic number and version 1, and
// refuses one above a limit, or one malformed in a way that would let wazero's decoder take a
// count or length from it that the bytes after it do not hold. It allocates a few bytes per
// type and function, within the limits.
//
// It follows the binary format of WebAssembly 2.0, the features the host enables, as wazero
// decodes it: wazero refuses what lies beyond, so a module that would decode differently here
// and there is refused either way. Where wazero departs from the specification (it reads the
// opcode after the SIMD prefix as one byte, not as a LEB128 number) the scan does as wazero
// does, so that both see the same instructions and so the same nesting.
func prescan(wasm []byte, memoryLimitPages uint32) (moduleStats, error) {
	s := &scanner{memoryLimitPages: memoryLimitPages}
	err := s.module(wasm)
	var m *malformed
	if errors.As(err, &m) {
		err = &hookError{msg: "module does not compile: " + m.Error()}
	}
	return s.stats, err
}

// scanner holds what earlier sections tell later ones.
type scanner struct {
	memoryLimitPages uint32
	stats            moduleStats
	tables           []bool   // by index: whether the table has a maximum within maxTableSize
	types            []arity  // by index
	funcTypes        []uint32 // the type index of each function the module defines
	importedFuncs    int      // which come after the functions it imports
	labels           []label  // reused by each function's scan
	sawCode, sawName bool
}

// malformed is the error of a module that is not valid WebAssembly 2.0.
type malformed struct {
	at  int
	msg string
}

func (e *malformed) Error() string { return fmt.Sprintf("%s at byte %d", e.msg, e.at) }

// overLimit is the error of a module above a limit; what says what the module has, e.g.
// "function 3 declares 50000 locals".
func overLimit(limit string, max uint64, what string) error {
	return &hookError{msg: fmt.Sprintf("module exceeds a limit: %s; the limit is %d %s", what, max, limit), limit: limit, max: max}
}

// reader reads one region of the module: a section, a function body. Offsets count from the
// start of the module, so errors can say where.
type reader struct {
	b   []byte // the whole module
	pos int
	end int
}

func (r *reader) fail(format string, args ...any) error {
	return &malformed{at: r.pos, msg: fmt.Sprintf(format, args...)}
}

func (r *reader) left() int { return r.end - r.pos }

func (r *reader) byte() (byte, error) {
	if r.pos >= r.end {
		return 0, r.fail("unexpected end")
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

// zero reads a reserved byte, which must be 0.
func (r *reader) zero() error {
	c, err := r.byte()
	if err == nil && c != 0 {
		r.pos--
		err = r.fail("reserved byte 0x%02x is not zero", c)
	}
	return err
}

// u32 reads an unsigned LEB128 number of at most 32 bits: at most 5 bytes, the last of which
// holds 4 bits.
func (r *reader) u32() (uint32, error) {
	start := r.pos
	var v uint32
	for i := 0; ; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if i == 4 && c&0xf0 != 0 {
			r.pos = start
			return 0, r.fail("integer too large")
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, nil
		}
	}
}

// s33 reads a signed LEB128 number of at most 33 bits, as block types are.
func (r *reader) s33() (int64, error) {
	start := r.pos
	var v int64
	for i := range 5 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if i == 4 && c&0x80 == 0 && c&0x70 != 0 && c&0x70 != 0x70 {
			r.pos = start
			return 0, r.fail("integer too large")
		}
		v |= int64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if shift := 7 * (i + 1); c&0x40 != 0 && shift < 64 {
				v |= -1 << shift // sign-extend
			}
			return v, nil
		}
	}
	r.pos = start
	return 0, r.fail("integer representation too long")
}

// skipLEB skips a LEB128 number of at most max bytes; its value is wazero's to check.
func (r *reader) skipLEB(max int) error {
	for range max {
		c, err := r.byte()
		if err != nil {
			return err
		}
		if c&0x80 == 0 {
			return nil
		}
	}
	return r.fail("integer representation too long")
}

func (r *reader) skip(n int) error {
	if n > r.left() {
		return r.fail("unexpected end")
	}
	r.pos += n
	return nil
}

// sub returns a reader of the next n bytes and moves past them.
func (r *reader) sub(n uint32) (reader, error) {
	if uint64(n) > uint64(r.left()) {
		return reader{}, r.fail("length %d is more than the %d bytes left", n, r.left())
	}
	s := reader{b: r.b, pos: r.pos, end: r.pos + int(n)}
	r.pos += int(n)
	return s, nil
}

// count reads the length of a vector whose elements take at least minSize bytes each, and
// checks that they fit in what is left.
func (r *reader) count(minSize int) (int, error) {
	at := r.pos
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if left := r.left(); uint64(n)*uint64(minSize) > uint64(left) {
		r.pos = at
		return 0, r.fail("vector of %d entries does not fit in the %d bytes left", n, left)
	}
	return int(n), nil
}

// name reads a UTF-8 name.
func (r *reader) name() ([]byte, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	s, err := r.sub(n)
	if err != nil {
		return nil, err
	}
	b := s.b[s.pos:s.end]
	if !utf8.Valid(b) {
		return nil, s.fail("name is not UTF-8")
	}
	return b, nil
}

// valType reads a value type of WebAssembly 2.0, or exnref, which wazero also reads.
func (r *reader) valType() error {
	c, err := r.byte()
	if err != nil {
		return err
	}
	switch c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f, 0x69: // i32 i64 f32 f64 v128 funcref externref exnref
		return nil
	}
	r.pos--
	return r.fail("unknown value type 0x%02x", c)
}

// refType reads the reference type of a table or element segment: funcref or externref.
func (r *reader) refType() error {
	c, err := r.byte()
	if err != nil {
		return err
	}
	if c != 0x70 && c != 0x6f {
		r.pos--
		return r.fail("unknown reference type 0x%02x", c)
	}
	return nil
}

// heapType reads the type of a ref.null: funcref, externref or, as wazero reads it, exnref.
func (r *reader) heapType() error {
	c, err := r.byte()
	if err != nil {
		return err
	}
	if c != 0x70 && c != 0x6f && c != 0x69 {
		r.pos--
		return r.fail("unknown reference type 0x%02x", c)
	}
	return nil
}

// limits reads the limits of a table or memory and returns the minimum and, if one is given,
// the maximum.
func (r *reader) limits() (lo, hi uint32, hasMax bool, err error) {
	flag, err := r.byte()
	if err != nil {
		return 0, 0, false, err
	}
	if flag > 1 {
		r.pos--
		return 0, 0, false, r.fail("unknown limits flag 0x%02x (shared memory is not supported)", flag)
	}
	if lo, err = r.u32(); err != nil || flag == 0 {
		return lo, 0, false, err
	}
	hi, err = r.u32()
	return lo, hi, true, err
}

func (s *scanner) module(wasm []byte) error {
	r := reader{b: wasm, pos: 8, end: len(wasm)}
	last := 0 // rank of the last non-custom section
	for r.left() > 0 {
		id, err := r.byte()
		if err != nil {
			return err
		}
		if id > secDataCount {
			r.pos--
			return r.fail("unknown section id %d", id)
		}
		if id != secCustom {
			if rank := sectionRank(id); rank > last {
				last = rank
			} else {
				r.pos--
				return r.fail("%s section out of order", sectionNames[id])
			}
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		sec, err := r.sub(size)
		if err != nil {
			return err
		}
		if err := s.section(id, &sec); err != nil {
			if m, ok := err.(*malformed); ok {
				m.msg = sectionNames[id] + " section: " + m.msg
			}
			return err
		}
		if sec.left() != 0 {
			return sec.fail("%s section: %d bytes after its end", sectionNames[id], sec.left())
		}
	}
	if len(s.funcTypes) > 0 && !s.sawCode {
		return r.fail("%d functions but no code section", len(s.funcTypes))
	}
	return nil
}

func (s *scanner) section(id byte, r *reader) error {
	switch id {
	case secCustom:
		return s.custom(r)
	case secType:
		return s.typeSection(r)
	case secImport:
		return s.imports(r)
	case secFunction:
		n, err := r.count(1)
		if err != nil {
			return err
		}
		if n > maxFunctions {
			return overLimit(limitFunctions, maxFunctions, fmt.Sprintf("the module defines %d functions", n))
		}
		s.stats.Functions = n
		s.funcTypes = make([]uint32, n)
		for i := range n {
			if s.funcTypes[i], err = r.u32(); err != nil {
				return err
			}
		}
		return nil
	case secTable:
		n, err := r.count(3)
		if err != nil {
			return err
		}
		for range n {
			if err := s.table(r); err != nil {
				return err
			}
		}
		return nil
	case secMemory:
		n, err := r.count(2)
		if err != nil {
			return err
		}
		for range n {
			if err := s.memory(r); err != nil {
				return err
			}
		}
		return nil
	case secGlobal:
		n, err := r.count(4)
		if err != nil {
			return err
		}
		for range n {
			if err := s.global(r); err != nil {
				return err
			}
			if err := s.constExpr(r); err != nil {
				return err
			}
		}
		return nil
	case secExport:
		n, err := r.count(3)
		if err != nil {
			return err
		}
		if n > maxExports {
			return overLimit(limitExports, maxExports, fmt.Sprintf("the module has %d exports", n))
		}
		s.stats.Exports = n
		for range n {
			if _, err := r.name(); err != nil {
				return err
			}
			kind, err := r.byte()
			if err != nil {
				return err
			}
			if kind > 3 {
				r.pos--
				return r.fail("unknown export kind %d", kind)
			}
			if _, err := r.u32(); err != nil {
				return err
			}
		}
		return nil
	case secStart, secDataCount:
		_, err := r.u32()
		return err
	case secElement:
		return s.elements(r)
	case secCode:
		return s.code(r)
	case secData:
		return s.data(r)
	}
	return r.fail("unknown section id %d", id)
}

// custom checks a custom section's name and, for the name section, its contents, which wazero
// decodes, sizing its tables by the counts they declare. wazero skips other custom sections.
func (s *scanner) custom(r *reader) error {
	name, err := r.name()
	if err != nil {
		return err
	}
	if string(name) != "name" {
		return r.skip(r.left())
	}
	if s.sawName {
		return r.fail("second name section")
	}
	s.sawName = true
	for r.left() > 0 {
		id, err := r.byte()
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		sub, err := r.sub(size)
		if err != nil {
			return err
		}
		switch id {
		case 0: // the module's name
			_, err = sub.name()
		case 1: // function names
			err = s.nameMap(&sub)
		case 2: // local names, by function
			var n int
			if n, err = s.names(&sub); err != nil {
				return err
			}
			for i := 0; i < n && err == nil; i++ {
				if _, err = sub.u32(); err == nil {
					err = s.nameMap(&sub)
				}
			}
		default: // skipped by wazero too
			sub.pos = sub.end
		}
		if err != nil {
			return err
		}
		if sub.left() != 0 {
			// wazero would read on from where its decoding stopped, not from here.
			return sub.fail("name subsection %d: %d bytes after its end", id, sub.left())
		}
	}
	return nil
}

// names reads the length of a vector of names and counts it against maxNames.
func (s *scanner) names(r *reader) (int, error) {
	n, err := r.count(2)
	if err != nil {
		return 0, err
	}
	if s.stats.Names += n; s.stats.Names > maxNames {
		return 0, overLimit(limitNames, maxNames, fmt.Sprintf("the name section has %d or more entries", s.stats.Names))
	}
	return n, nil
}

func (s *scanner) nameMap(r *reader) error {
	n, err := s.names(r)
	if err != nil {
		return err
	}
	for range n {
		if _, err := r.u32(); err != nil {
			return err
		}
		if _, err := r.name(); err != nil {
			return err
		}
	}
	return nil
}

func (s *scanner) typeSection(r *reader) error {
	n, err := r.count(3)
	if err != nil {
		return err
	}
	if n > maxTypes {
		return overLimit(limitTypes, maxTypes, fmt.Sprintf("the module has %d function types", n))
	}
	s.stats.Types = n
	for i := range n {
		form, err := r.byte()
		if err != nil {
			return err
		}
		if form != 0x60 {
			r.pos--
			return r.fail("type %d is not a function type (0x%02x)", i, form)
		}
		var a [2]int // parameters, results
		for j, what := range [...]string{"parameters", "results"} {
			m, err := r.count(1)
			if err != nil {
				return err
			}
			if m > maxTypeArity {
				return overLimit(limitTypeArity, maxTypeArity, fmt.Sprintf("function type %d has %d %s", i, m, what))
			}
			a[j] = m
			for range m {
				if err := r.valType(); err != nil {
					return err
				}
			}
		}
		s.types = append(s.types, arity{params: a[0], results: a[1]})
		// wazero builds a key for each type in time that grows with the square of its arity.
		if s.stats.ModuleCost += uint64((a[0]+a[1])*(a[0]+a[1])) / 4; s.stats.ModuleCost > maxModuleCost {
			return overLimit(limitModuleCost, maxModuleCost, fmt.Sprintf("the function types up to %d have an estimated compile cost of %d", i, s.stats.ModuleCost))
		}
	}
	return nil
}

func (s *scanner) imports(r *reader) error {
	n, err := r.count(4)
	if err != nil {
		return err
	}
	if n > maxImports {
		return overLimit(limitImports, maxImports, fmt.Sprintf("the module has %d imports", n))
	}
	s.stats.Imports = n
	for range n {
		for range 2 { // module and field
			if _, err := r.name(); err != nil {
				return err
			}
		}
		kind, err := r.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0: // function
			s.importedFuncs++
			_, err = r.u32()
		case 1:
			err = s.table(r)
		case 2:
			err = s.memory(r)
		case 3:
			err = s.global(r)
		default:
			r.pos--
			return r.fail("unknown import kind %d", kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// table reads a table type. A table may grow, through table.grow, to its maximum or, if it has
// none, to 2^32-1 elements, for which wazero allocates 8 bytes each; a table without a maximum
// within the limit is refused only if the module's code grows it (see scanner.tableGrow).
func (s *scanner) table(r *reader) error {
	if len(s.tables) >= maxTables {
		return overLimit(limitTables, maxTables, fmt.Sprintf("the module has %d or more tables", len(s.tables)+1))
	}
	if err := r.refType(); err != nil {
		return err
	}
	lo, hi, hasMax, err := r.limits()
	if err != nil {
		return err
	}
	if lo > maxTableSize {
		return overLimit(limitTableSize, maxTableSize, fmt.Sprintf("table %d has a minimum size of %d", len(s.tables), lo))
	}
	bounded := hasMax && hi <= maxTableSize
	s.tables = append(s.tables, bounded)
	s.stats.Tables = len(s.tables)
	s.stats.TableSize = max(s.stats.TableSize, lo)
	if bounded {
		s.stats.TableSize = max(s.stats.TableSize, hi)
	}
	return nil
}

// tableGrow checks the table index of a table.grow.
func (s *scanner) tableGrow(fn int, t uint32) error {
	if int64(t) < int64(len(s.tables)) && !s.tables[t] {
		return overLimit(limitTableSize, maxTableSize, fmt.Sprintf("function %d grows table %d, which has no maximum size within the limit", fn, t))
	}
	return nil // an index out of range is wazero's to refuse
}

// memory reads a memory type; wazero refuses a second memory.
func (s *scanner) memory(r *reader) error {
	lo, _, _, err := r.limits()
	if err != nil {
		return err
	}
	// The maximum may be larger: wazero caps it at the limit, and memory.grow fails beyond.
	if lo > s.memoryLimitPages {
		return overLimit(limitMemoryPages, uint64(s.memoryLimitPages),
			fmt.Sprintf("the memory starts at %d pages of 64 KiB", lo))
	}
	return nil
}

// global reads a global type and counts it.
func (s *scanner) global(r *reader) error {
	if s.stats.Globals++; s.stats.Globals > maxGlobals {
		return overLimit(limitGlobals, maxGlobals, fmt.Sprintf("the module has %d or more globals", s.stats.Globals))
	}
	if err := r.valType(); err != nil {
		return err
	}
	mut, err := r.byte()
	if err == nil && mut > 1 {
		r.pos--
		err = r.fail("unknown mutability %d", mut)
	}
	return err
}

// constExpr reads a constant expression up to its end.
func (s *scanner) constExpr(r *reader) error {
	for {
		op, err := r.byte()
		if err != nil {
			return err
		}
		switch op {
		case 0x0b: // end
			return nil
		case 0x41: // i32.const
			err = r.skipLEB(5)
		case 0x42: // i64.const
			err = r.skipLEB(10)
		case 0x43: // f32.const
			err = r.skip(4)
		case 0x44: // f64.const
			err = r.skip(8)
		case 0x23, 0xd2: // global.get, ref.func
			_, err = r.u32()
		case 0xd0: // ref.null
			err = r.heapType()
		case 0xfd: // v128.const; wazero reads its opcode as one byte
			var sub byte
			if sub, err = r.byte(); err == nil {
				if sub != 0x0c {
					r.pos--
					return r.fail("instruction 0xfd 0x%02x in a constant expression", sub)
				}
				err = r.skip(16)
			}
		default:
			r.pos--
			return r.fail("instruction 0x%02x in a constant expression", op)
		}
		if err != nil {
			return err
		}
	}
}

func (s *scanner) elements(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	if n > maxElemSegments {
		return overLimit(limitElemSegments, maxElemSegments, fmt.Sprintf("the module has %d element segments", n))
	}
	s.stats.ElemSegments = n
	for range n {
		flags, err := r.u32()
		if err != nil {
			return err
		}
		if flags > 7 {
			r.pos--
			return r.fail("unknown element segment flags %d", flags)
		}
		if flags&3 == 2 { // active with a table index
			if _, err := r.u32(); err != nil {
				return err
			}
		}
		if flags&1 == 0 { // active: an offset
			if err := s.constExpr(r); err != nil {
				return err
			}
		}
		exprs := flags&4 != 0
		if flags&3 != 0 { // not the short form of flags 0 and 4: an element kind or type
			if exprs {
				err = r.refType()
			} else {
				err = r.zero() // elemkind funcref
			}
			if err != nil {
				return err
			}
		}
		m, err := r.count(1)
		if err != nil {
			return err
		}
		if s.stats.Elements += m; s.stats.Elements > maxElements {
			return overLimit(limitElements, maxElements, fmt.Sprintf("the element segments have %d or more entries", s.stats.Elements))
		}
		for range m {
			if exprs {
				err = s.constExpr(r)
			} else {
				_, err = r.u32()
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *scanner) data(r *reader) error {
	n, err := r.count(2)
	if err != nil {
		return err
	}
	if n > maxDataSegments {
		return overLimit(limitDataSegments, maxDataSegments, fmt.Sprintf("the module has %d data segments", n))
	}
	s.stats.DataSegments = n
	for range n {
		flags, err := r.u32()
		if err != nil {
			return err
		}
		switch flags {
		case 0:
			err = s.constExpr(r)
		case 1: // passive
		case 2:
			if _, err = r.u32(); err == nil {
				err = s.constExpr(r)
			}
		default:
			r.pos--
			return r.fail("unknown data segment flags %d", flags)
		}
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		if _, err := r.sub(size); err != nil {
			return err
		}
	}
	return nil
}
