package wasmhooks

import "fmt"

// The pre-scan of function bodies, and the estimate of what compiling them costs.
//
// wazero's compiler (wazevo) builds SSA form for each function with the algorithm of Braun et
// al. and then computes dominators over its basic blocks. Measured on wazero 1.12 (CPU time on
// a shared machine), four things make a function expensive out of proportion to its size,
// each within a few dozen kilobytes:
//
//   - basic blocks: finding dominators costs up to about 12 ns per block squared (16,000
//     br_ifs in a row, 64 KB of code, took 4 s);
//   - reads after a chain of blocks with one predecessor each, as every br_if makes: each
//     local.get, global.get or memory access walks the chain back to a definition without
//     remembering it, about 8 ns per block walked (10,000 br_ifs and then 40,000 local.gets,
//     160 KB, took 4.8 s);
//   - variables at a block with many predecessors: each variable read there is looked up
//     along every incoming chain, about 6 ns per variable and block walked (1,000 locals read
//     in a loop with 1,000 br_ifs back to it, 8 KB, took 3.4 s), and a term that grows with
//     the square of the variables (10,000 locals and 316 br_ifs, 41 KB, took 25 s);
//   - values carried by branches and block types: about 450 ns each (1,000 nested blocks
//     each typed (1000 × i32) -> (1000 × i32), 8 KB, took 0.9 s and 83 MB).
//
// cost.total adds these up in units of about 3 ns; maxFunctionCost and maxModuleCost bound the
// sums. At the limits, the worst functions measured took 1.0 to 1.35 s and a module of six of
// them 6.9 s. The Go examples come to 23 million for their largest function and 250 million
// for the module.

// label is a block, loop or if being read, or the function's own block at the bottom.
type label struct {
	loop, isIf bool
	arity      int  // values a branch to it carries
	targeted   bool // a reachable branch goes to it
	reachable  bool // its start was reachable
	chainAt    int  // the chain at its start
	maxBranch  int  // the longest chain of a branch to it
	sawElse    bool
	thenEnd    int // chain at the end of an if's then arm; -1 if that end is unreachable
}

// cost follows one function's control flow as wazevo will build it, to estimate its cost.
type cost struct {
	blocks    uint64 // basic blocks
	walk      uint64 // blocks walked by reads along chains
	edges     uint64 // blocks walked along the chains that end in branches
	values    uint64 // values carried by branches and block boundaries
	chain     int    // blocks with a single predecessor before the current one
	reachable bool
}

// total is the estimate in units of about 3 ns, for a function of vars parameters and locals;
// see the top of this file.
func (c *cost) total(vars uint64) uint64 {
	b := c.blocks + 1
	return 4*b*b + 3*c.walk + 2*(vars+1)*c.edges + vars*vars*b/4 + 150*c.values
}

func (s *scanner) code(r *reader) error {
	s.sawCode = true
	n, err := r.count(2)
	if err != nil {
		return err
	}
	if n != len(s.funcTypes) {
		return r.fail("%d function bodies for %d functions", n, len(s.funcTypes))
	}
	for i := range n {
		size, err := r.u32()
		if err != nil {
			return err
		}
		body, err := r.sub(size)
		if err != nil {
			return err
		}
		fn := s.importedFuncs + i // the function's index, as messages give it
		if size > maxBodyBytes {
			return overLimit(limitBodyBytes, maxBodyBytes, fmt.Sprintf("function %d has %d bytes of code", fn, size))
		}
		s.stats.MaxBodyBytes = max(s.stats.MaxBodyBytes, int(size))
		if err := s.function(i, fn, &body); err != nil {
			if m, ok := err.(*malformed); ok {
				m.msg = fmt.Sprintf("function %d: %s", fn, m.msg)
			}
			return err
		}
	}
	return nil
}

// function reads the locals and instructions of function fn, the i-th the module defines,
// and adds its cost to the module's.
func (s *scanner) function(i, fn int, r *reader) error {
	groups, err := r.count(2)
	if err != nil {
		return err
	}
	var locals uint64
	for range groups {
		n, err := r.u32()
		if err != nil {
			return err
		}
		if err := r.valType(); err != nil {
			return err
		}
		if locals += uint64(n); locals > maxLocals {
			return overLimit(limitLocals, maxLocals, fmt.Sprintf("function %d declares %d or more locals", fn, locals))
		}
	}
	s.stats.MaxLocals = max(s.stats.MaxLocals, locals)
	if s.stats.ModuleLocals += locals; s.stats.ModuleLocals > maxModuleLocals {
		return overLimit(limitModuleLocals, maxModuleLocals, fmt.Sprintf("the functions up to %d declare %d locals", fn, s.stats.ModuleLocals))
	}
	ft := s.funcType(s.funcTypes[i])
	c := cost{reachable: true, values: uint64(ft.params)}
	if err := s.instructions(fn, r, ft.results, &c); err != nil {
		return err
	}
	total := c.total(uint64(ft.params) + locals)
	s.stats.MaxBlocks = max(s.stats.MaxBlocks, c.blocks)
	s.stats.MaxFunctionCost = max(s.stats.MaxFunctionCost, total)
	if total > maxFunctionCost {
		return overLimit(limitFunctionCost, maxFunctionCost, fmt.Sprintf("function %d has an estimated compile cost of %d", fn, total))
	}
	if s.stats.ModuleCost += total; s.stats.ModuleCost > maxModuleCost {
		return overLimit(limitModuleCost, maxModuleCost, fmt.Sprintf("the functions up to %d have an estimated compile cost of %d", fn, s.stats.ModuleCost))
	}
	return nil
}

// funcType returns the arity of function type t, or none if there is no such type: wazero
// refuses the index then.
func (s *scanner) funcType(t uint32) arity {
	if int64(t) < int64(len(s.types)) {
		return s.types[t]
	}
	return arity{}
}

// instructions follows a function's instructions to its final end, which must be its last
// byte. Immediates are read only as far as needed to find the next instruction and the shape
// of the control flow: their values are wazero's to check.
func (s *scanner) instructions(fn int, r *reader, results int, c *cost) error {
	labels := append(s.labels[:0], label{arity: results, reachable: true})
	defer func() { s.labels = labels[:0] }() // reused by the next function
	// branch notes a branch of the current block to label depth l.
	branch := func(l uint32, chain int) {
		if int64(l) >= int64(len(labels)) {
			return // wazero refuses the index
		}
		t := &labels[len(labels)-1-int(l)]
		c.values += uint64(t.arity) // checked by wazero's validation even where unreachable
		if c.reachable {
			t.targeted = true
			t.maxBranch = max(t.maxBranch, chain)
			c.edges += uint64(chain)
		}
	}
	for {
		op, err := r.byte()
		if err != nil {
			return err
		}
		if c.reachable && reads(op) {
			c.walk += uint64(c.chain)
		}
		switch {
		case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
			bt, err := s.blockType(r)
			if err != nil {
				return err
			}
			if len(labels) > maxNesting {
				return overLimit(limitNesting, maxNesting, fmt.Sprintf("function %d nests blocks more than %d deep", fn, maxNesting))
			}
			s.stats.MaxNesting = max(s.stats.MaxNesting, len(labels))
			l := label{loop: op == 0x03, isIf: op == 0x04, arity: bt.results, reachable: c.reachable, chainAt: c.chain, thenEnd: -1}
			if l.loop {
				l.arity = bt.params
			}
			labels = append(labels, l)
			c.values += uint64(bt.params + bt.results)
			c.blocks += uint64(op - 1) // the code after it; a loop adds its header, an if its arms
			if op != 0x02 {
				c.chain++ // the loop's header, or the then arm, follows the current block
			}
		case op == 0x05: // else
			l := &labels[len(labels)-1]
			if !l.isIf || l.sawElse {
				r.pos--
				return r.fail("else without if")
			}
			l.sawElse = true
			if c.reachable {
				l.thenEnd = c.chain
			}
			c.chain, c.reachable = l.chainAt+1, l.reachable
		case op == 0x0b: // end
			if len(labels) == 1 {
				if r.left() != 0 {
					return r.fail("%d bytes after the function's end", r.left())
				}
				return nil
			}
			l := labels[len(labels)-1]
			labels = labels[:len(labels)-1]
			s.endLabel(&l, c)
		case op == 0x00 || op == 0x0f: // unreachable, return
			if op == 0x0f {
				branch(uint32(len(labels)-1), c.chain)
			}
			c.reachable = false
		case op == 0x01 || op == 0x1a || op == 0x1b || op == 0xd1 || 0x45 <= op && op <= 0xc4:
			// nop, drop, select, ref.is_null, numeric: no immediates
		case op == 0x0c || op == 0x0d: // br, br_if
			l, err := r.u32()
			if err != nil {
				return err
			}
			branch(l, c.chain)
			if op == 0x0c {
				c.reachable = false
			} else {
				c.blocks++ // the code after it
				c.chain++
			}
		case op == 0x0e: // br_table: a block for each target, which jumps on to the target
			n, err := r.count(1)
			if err != nil {
				return err
			}
			for range n + 1 {
				l, err := r.u32()
				if err != nil {
					return err
				}
				branch(l, c.chain+1)
			}
			c.blocks += uint64(n) + 1
			c.reachable = false
		case op == 0x10 || 0x20 <= op && op <= 0x26 || op == 0xd2:
			// call, local.*, global.*, table.get, table.set, ref.func: an index
			_, err = r.u32()
		case op == 0x11: // call_indirect
			if _, err = r.u32(); err == nil {
				_, err = r.u32()
			}
		case op == 0x1c: // select t*
			var n uint32
			if n, err = r.u32(); err == nil && n != 1 {
				r.pos--
				return r.fail("typed select with %d types", n)
			}
			if err == nil {
				err = r.valType()
			}
		case 0x28 <= op && op <= 0x3e: // loads and stores
			err = memArg(r)
		case op == 0x3f || op == 0x40: // memory.size, memory.grow
			err = r.zero()
		case op == 0x41: // i32.const
			err = r.skipLEB(5)
		case op == 0x42: // i64.const
			err = r.skipLEB(10)
		case op == 0x43: // f32.const
			err = r.skip(4)
		case op == 0x44: // f64.const
			err = r.skip(8)
		case op == 0xd0: // ref.null
			err = r.heapType()
		case op == 0xfc:
			var loops bool
			if loops, err = s.miscInstruction(fn, r); loops {
				// memory.fill and table.fill become a loop of three blocks
				c.blocks += 3
				c.chain += 3
			}
		case op == 0xfd:
			err = simdInstruction(r)
		default:
			r.pos--
			return r.fail("unknown instruction 0x%02x", op)
		}
		if err != nil {
			return err
		}
	}
}

// reads reports whether the instruction op may look up a definition along the chain: a
// local.get or global.get, or an instruction that uses memory, whose base and size the
// compiler keeps as variables. The prefixed instructions are counted whatever they are.
func reads(op byte) bool {
	return op == 0x20 || op == 0x23 || 0x28 <= op && op <= 0x40 || op == 0xfc || op == 0xfd
}

// endLabel moves past the end of l: to the block after it, which is reached by falling
// through, by the branches to l unless it is a loop, and by an if's other arm. With one way in
// the chain goes on; with more it starts again there.
func (s *scanner) endLabel(l *label, c *cost) {
	ways, chain := 0, 0
	if c.reachable {
		ways, chain = 1, c.chain
	}
	if l.targeted && !l.loop {
		ways, chain = ways+1, max(chain, l.maxBranch)
	}
	if l.isIf {
		switch {
		case !l.sawElse && l.reachable: // the missing else arm falls through
			ways, chain = ways+1, max(chain, l.chainAt+1)
		case l.sawElse && l.thenEnd >= 0:
			ways, chain = ways+1, max(chain, l.thenEnd)
		}
	}
	if c.reachable && ways > 1 {
		c.edges += uint64(c.chain) // the fall-through is one more incoming chain
	}
	c.reachable = ways > 0
	switch ways {
	case 0:
		c.chain = 0
	case 1:
		c.chain = chain + 1
	default:
		c.chain = 0
	}
}

// arity is the number of parameters and results of a function or block type.
type arity struct{ params, results int }

// blockType reads the type of a block, loop or if: empty, a value type or a type index.
func (s *scanner) blockType(r *reader) (arity, error) {
	at := r.pos
	t, err := r.s33()
	if err != nil {
		return arity{}, err
	}
	switch t {
	case -64: // empty
		return arity{}, nil
	case -1, -2, -3, -4, -5, -16, -17: // i32 i64 f32 f64 v128 funcref externref
		return arity{results: 1}, nil
	}
	if t < 0 {
		r.pos = at
		return arity{}, r.fail("unknown block type %d", t)
	}
	return s.funcType(uint32(min(t, 1<<32-1))), nil
}

// memArg reads the alignment and offset of a memory instruction.
func memArg(r *reader) error {
	if _, err := r.u32(); err != nil {
		return err
	}
	_, err := r.u32()
	return err
}

// miscInstruction reads the rest of an instruction with the prefix 0xfc in function fn:
// saturating truncation, bulk memory and table instructions. It reports whether the compiler
// makes a loop of it: memory.fill and table.fill.
func (s *scanner) miscInstruction(fn int, r *reader) (loops bool, err error) {
	at := r.pos
	op, err := r.u32()
	if err != nil {
		return false, err
	}
	switch {
	case op <= 7: // trunc_sat
	case op == 8: // memory.init
		if _, err = r.u32(); err == nil {
			err = r.zero()
		}
	case op == 9 || op == 13 || op == 16: // data.drop, elem.drop, table.size
		_, err = r.u32()
	case op == 10: // memory.copy
		if err = r.zero(); err == nil {
			err = r.zero()
		}
	case op == 11: // memory.fill
		loops, err = true, r.zero()
	case op == 12 || op == 14: // table.init, table.copy
		if _, err = r.u32(); err == nil {
			_, err = r.u32()
		}
	case op == 15: // table.grow
		var t uint32
		if t, err = r.u32(); err == nil {
			err = s.tableGrow(fn, t)
		}
	case op == 17: // table.fill
		loops = true
		_, err = r.u32()
	default:
		r.pos = at
		err = r.fail("unknown instruction 0xfc %d", op)
	}
	return loops, err
}

// simdInstruction reads the rest of an instruction with the prefix 0xfd. Its opcode is read as
// one byte, as wazero reads it: opcodes from 0x80 are LEB128 numbers of two bytes whose second
// byte is 0x01, which both then read as a nop.
func simdInstruction(r *reader) error {
	op, err := r.byte()
	if err != nil {
		return err
	}
	switch {
	case op <= 0x0b || op == 0x5c || op == 0x5d: // loads, store, load_zero
		return memArg(r)
	case op == 0x0c || op == 0x0d: // v128.const, i8x16.shuffle
		return r.skip(16)
	case 0x15 <= op && op <= 0x22: // extract_lane, replace_lane
		return r.skip(1)
	case 0x54 <= op && op <= 0x5b: // load_lane, store_lane
		if err := memArg(r); err != nil {
			return err
		}
		return r.skip(1)
	}
	return nil // no immediates; wazero refuses the opcodes that are not assigned
}
