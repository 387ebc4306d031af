package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// Callable is a stand-in for a Python callable: REDUCE and NEWOBJ call it
// with the argument tuple and push the result.
type Callable interface {
	Call(args Tuple) (Value, error)
}

// RawCallable is a stand-in that REDUCE may call with an argument that is
// not a tuple. Python's pickle refuses such a REDUCE, but TorchScript's
// pickler writes enum values that way (the enum class, the value, REDUCE).
type RawCallable interface {
	CallRaw(arg Value) (Value, error)
}

// Builder is an object whose state BUILD can set (Python's __setstate__ or
// __dict__ update).
type Builder interface {
	Build(state Value) error
}

// Func adapts a Go function to Callable.
type Func func(args Tuple) (Value, error)

// Call calls f.
func (f Func) Call(args Tuple) (Value, error) { return f(args) }

// Limits bound the resources a Decoder may use. A zero field means the
// default.
type Limits struct {
	// MaxMemo is the most memo entries (default 1<<20).
	MaxMemo int
	// MaxStack is the most values on the stack, all marks together
	// (default 1<<20).
	MaxStack int
	// MaxMarks is the most open MARKs, the nesting depth of containers
	// built from marks (default 1000).
	MaxMarks int
	// MaxIndex is the largest memo index BINPUT may use (default 1<<24).
	MaxIndex int
}

func (l Limits) withDefaults() Limits {
	if l.MaxMemo <= 0 {
		l.MaxMemo = 1 << 20
	}
	if l.MaxStack <= 0 {
		l.MaxStack = 1 << 20
	}
	if l.MaxMarks <= 0 {
		l.MaxMarks = 1000
	}
	if l.MaxIndex <= 0 {
		l.MaxIndex = 1 << 24
	}
	return l
}

// Decoder unpickles one pickle. Find must be set; the other fields are
// optional.
type Decoder struct {
	// Find resolves a GLOBAL or STACK_GLOBAL (module, name) to a value,
	// typically a Callable, or returns an error to refuse it. Returning an
	// error wrapping ErrNotAllowed is the way to say "not in the allowlist".
	Find func(module, name string) (Value, error)
	// PersistentLoad resolves the persistent id popped by BINPERSID. If nil,
	// BINPERSID is an error.
	PersistentLoad func(pid Value) (Value, error)
	// Limits bound the decoder's resources.
	Limits Limits
}

// ErrNotAllowed is wrapped by errors of Find functions that refuse a global.
var ErrNotAllowed = errors.New("not allowed")

// Error is a decoding error: where it happened, in which opcode, and why.
type Error struct {
	Offset int    // byte offset of the opcode in the input
	Op     string // opcode name, "" if the error is not about one opcode
	Err    error
}

// Error returns "pickle: OP at byte N: reason".
func (e *Error) Error() string {
	if e.Op == "" {
		return fmt.Sprintf("pickle: at byte %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("pickle: %s at byte %d: %v", e.Op, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Unpickle decodes data with d's settings and returns the value STOP
// returns. Bytes after STOP are ignored, as Python does.
func (d *Decoder) Unpickle(data []byte) (Value, error) {
	if d.Find == nil {
		return nil, errors.New("pickle: Decoder.Find is nil")
	}
	m := machine{d: d, lim: d.Limits.withDefaults(), data: data, memo: map[int]Value{}}
	return m.run()
}

type machine struct {
	d     *Decoder
	lim   Limits
	data  []byte
	pos   int
	stack []Value
	marks []int
	memo  map[int]Value
}

var errTruncated = errors.New("truncated input")

// read returns the next n bytes.
func (m *machine) read(n int) ([]byte, error) {
	if n < 0 || n > len(m.data)-m.pos {
		return nil, errTruncated
	}
	b := m.data[m.pos : m.pos+n]
	m.pos += n
	return b, nil
}

func (m *machine) readLine() (string, error) {
	for i := m.pos; i < len(m.data); i++ {
		if m.data[i] == '\n' {
			s := string(m.data[m.pos:i])
			m.pos = i + 1
			return s, nil
		}
	}
	return "", errTruncated
}

func (m *machine) push(v Value) error {
	if len(m.stack) >= m.lim.MaxStack {
		return fmt.Errorf("stack exceeds %d values", m.lim.MaxStack)
	}
	m.stack = append(m.stack, v)
	return nil
}

func (m *machine) base() int {
	if len(m.marks) == 0 {
		return 0
	}
	return m.marks[len(m.marks)-1]
}

func (m *machine) pop() (Value, error) {
	if len(m.stack) <= m.base() {
		return nil, errors.New("stack underflow")
	}
	v := m.stack[len(m.stack)-1]
	m.stack = m.stack[:len(m.stack)-1]
	return v, nil
}

func (m *machine) top() (Value, error) {
	if len(m.stack) <= m.base() {
		return nil, errors.New("stack underflow")
	}
	return m.stack[len(m.stack)-1], nil
}

// popMark pops the values above the innermost mark, and the mark.
func (m *machine) popMark() ([]Value, error) {
	if len(m.marks) == 0 {
		return nil, errors.New("no MARK on the stack")
	}
	b := m.marks[len(m.marks)-1]
	m.marks = m.marks[:len(m.marks)-1]
	items := make([]Value, len(m.stack)-b)
	copy(items, m.stack[b:])
	clear(m.stack[b:])
	m.stack = m.stack[:b]
	return items, nil
}

func (m *machine) put(i int) error {
	if i < 0 || i > m.lim.MaxIndex {
		return fmt.Errorf("memo index %d out of range [0, %d]", i, m.lim.MaxIndex)
	}
	v, err := m.top()
	if err != nil {
		return err
	}
	if _, ok := m.memo[i]; !ok && len(m.memo) >= m.lim.MaxMemo {
		return fmt.Errorf("memo exceeds %d entries", m.lim.MaxMemo)
	}
	m.memo[i] = v
	return nil
}

func (m *machine) get(i int) error {
	v, ok := m.memo[i]
	if !ok {
		return fmt.Errorf("memo index %d was never stored", i)
	}
	return m.push(v)
}

func (m *machine) run() (Value, error) {
	for {
		start := m.pos
		if m.pos >= len(m.data) {
			return nil, &Error{Offset: start, Err: errors.New("input ends before STOP")}
		}
		op := m.data[m.pos]
		m.pos++
		if op == opStop {
			v, err := m.pop()
			if err != nil {
				return nil, &Error{Offset: start, Op: "STOP", Err: err}
			}
			return v, nil
		}
		if err := m.step(op); err != nil {
			return nil, &Error{Offset: start, Op: opName(op), Err: err}
		}
	}
}

func (m *machine) step(op byte) error {
	switch op {
	case opProto:
		b, err := m.read(1)
		if err != nil {
			return err
		}
		if b[0] > 5 {
			return fmt.Errorf("unsupported protocol %d", b[0])
		}
		return nil
	case opFrame:
		_, err := m.read(8) // frame length: a hint, not needed in memory
		return err
	case opGlobal:
		mod, err := m.readLine()
		if err != nil {
			return err
		}
		name, err := m.readLine()
		if err != nil {
			return err
		}
		return m.global(mod, name)
	case opStackGlobal:
		nv, err := m.pop()
		if err != nil {
			return err
		}
		mv, err := m.pop()
		if err != nil {
			return err
		}
		mod, ok1 := mv.(string)
		name, ok2 := nv.(string)
		if !ok1 || !ok2 {
			return fmt.Errorf("module and name must be str, got %s and %s", TypeName(mv), TypeName(nv))
		}
		return m.global(mod, name)
	case opBinPut:
		b, err := m.read(1)
		if err != nil {
			return err
		}
		return m.put(int(b[0]))
	case opLongBinPut:
		b, err := m.read(4)
		if err != nil {
			return err
		}
		return m.put(int(binary.LittleEndian.Uint32(b)))
	case opMemoize:
		return m.put(len(m.memo))
	case opBinGet:
		b, err := m.read(1)
		if err != nil {
			return err
		}
		return m.get(int(b[0]))
	case opLongBinGet:
		b, err := m.read(4)
		if err != nil {
			return err
		}
		return m.get(int(binary.LittleEndian.Uint32(b)))
	case opMark:
		if len(m.marks) >= m.lim.MaxMarks {
			return fmt.Errorf("more than %d nested MARKs", m.lim.MaxMarks)
		}
		m.marks = append(m.marks, len(m.stack))
		return nil
	case opPop:
		if len(m.stack) == m.base() && len(m.marks) > 0 {
			// Python's POP discards a mark when the stack top is one.
			_, err := m.popMark()
			return err
		}
		_, err := m.pop()
		return err
	case opPopMark:
		_, err := m.popMark()
		return err
	case opDup:
		v, err := m.top()
		if err != nil {
			return err
		}
		return m.push(v)
	case opNone:
		return m.push(None{})
	case opNewTrue:
		return m.push(true)
	case opNewFalse:
		return m.push(false)
	case opBinInt:
		b, err := m.read(4)
		if err != nil {
			return err
		}
		return m.push(int64(int32(binary.LittleEndian.Uint32(b))))
	case opBinInt1:
		b, err := m.read(1)
		if err != nil {
			return err
		}
		return m.push(int64(b[0]))
	case opBinInt2:
		b, err := m.read(2)
		if err != nil {
			return err
		}
		return m.push(int64(binary.LittleEndian.Uint16(b)))
	case opLong1, opLong4:
		var n int
		if op == opLong1 {
			b, err := m.read(1)
			if err != nil {
				return err
			}
			n = int(b[0])
		} else {
			b, err := m.read(4)
			if err != nil {
				return err
			}
			n = int(int32(binary.LittleEndian.Uint32(b)))
			if n < 0 {
				return fmt.Errorf("negative byte count %d", n)
			}
		}
		b, err := m.read(n)
		if err != nil {
			return err
		}
		v, err := decodeLong(b)
		if err != nil {
			return err
		}
		return m.push(v)
	case opBinFloat:
		b, err := m.read(8)
		if err != nil {
			return err
		}
		return m.push(math.Float64frombits(binary.BigEndian.Uint64(b)))
	case opShortBinUnicode, opBinUnicode, opBinUnicode8:
		b, err := m.readCounted(op, opShortBinUnicode, opBinUnicode)
		if err != nil {
			return err
		}
		if !utf8.Valid(b) {
			return errors.New("string is not valid UTF-8")
		}
		return m.push(string(b))
	case opShortBinString, opBinString:
		// Python 2 str: torch.load decodes them as UTF-8 by default... we
		// take them as strings when they are valid UTF-8.
		b, err := m.readCounted(op, opShortBinString, opBinString)
		if err != nil {
			return err
		}
		if !utf8.Valid(b) {
			return errors.New("string is not valid UTF-8")
		}
		return m.push(string(b))
	case opShortBinBytes, opBinBytes:
		b, err := m.readCounted(op, opShortBinBytes, opBinBytes)
		if err != nil {
			return err
		}
		return m.push(append([]byte(nil), b...))
	case opEmptyTuple:
		return m.push(Tuple{})
	case opTuple1, opTuple2, opTuple3:
		n := int(op-opTuple1) + 1
		if len(m.stack)-m.base() < n {
			return errors.New("stack underflow")
		}
		t := make(Tuple, n)
		copy(t, m.stack[len(m.stack)-n:])
		m.stack = m.stack[:len(m.stack)-n]
		return m.push(t)
	case opTuple:
		items, err := m.popMark()
		if err != nil {
			return err
		}
		return m.push(Tuple(items))
	case opEmptyList:
		return m.push(&List{})
	case opList:
		items, err := m.popMark()
		if err != nil {
			return err
		}
		return m.push(&List{Items: items})
	case opEmptyDict:
		return m.push(NewDict())
	case opDict:
		items, err := m.popMark()
		if err != nil {
			return err
		}
		d := NewDict()
		if err := setItems(d, items); err != nil {
			return err
		}
		return m.push(d)
	case opAppend:
		v, err := m.pop()
		if err != nil {
			return err
		}
		lv, err := m.top()
		if err != nil {
			return err
		}
		l, ok := lv.(*List)
		if !ok {
			return fmt.Errorf("cannot append to %s", TypeName(lv))
		}
		l.Items = append(l.Items, v)
		return nil
	case opAppends:
		items, err := m.popMark()
		if err != nil {
			return err
		}
		lv, err := m.top()
		if err != nil {
			return err
		}
		l, ok := lv.(*List)
		if !ok {
			return fmt.Errorf("cannot append to %s", TypeName(lv))
		}
		l.Items = append(l.Items, items...)
		return nil
	case opSetItem:
		v, err := m.pop()
		if err != nil {
			return err
		}
		k, err := m.pop()
		if err != nil {
			return err
		}
		dv, err := m.top()
		if err != nil {
			return err
		}
		dict, ok := dv.(*Dict)
		if !ok {
			return fmt.Errorf("cannot set an item of %s", TypeName(dv))
		}
		return dict.Set(k, v)
	case opSetItems:
		items, err := m.popMark()
		if err != nil {
			return err
		}
		dv, err := m.top()
		if err != nil {
			return err
		}
		dict, ok := dv.(*Dict)
		if !ok {
			return fmt.Errorf("cannot set items of %s", TypeName(dv))
		}
		return setItems(dict, items)
	case opReduce, opNewObj:
		av, err := m.pop()
		if err != nil {
			return err
		}
		fv, err := m.pop()
		if err != nil {
			return err
		}
		args, ok := av.(Tuple)
		if !ok {
			if f, ok := fv.(RawCallable); ok && op == opReduce {
				v, err := f.CallRaw(av)
				if err != nil {
					return err
				}
				if v == nil {
					return fmt.Errorf("%T returned nothing", f)
				}
				return m.push(v)
			}
			return fmt.Errorf("arguments must be a tuple, got %s", TypeName(av))
		}
		f, ok := fv.(Callable)
		if !ok {
			return fmt.Errorf("%s is not callable", TypeName(fv))
		}
		v, err := f.Call(args)
		if err != nil {
			return err
		}
		if v == nil {
			return fmt.Errorf("%T returned nothing", f)
		}
		return m.push(v)
	case opBuild:
		state, err := m.pop()
		if err != nil {
			return err
		}
		ov, err := m.top()
		if err != nil {
			return err
		}
		b, ok := ov.(Builder)
		if !ok {
			return fmt.Errorf("cannot set the state of %s", TypeName(ov))
		}
		return b.Build(state)
	case opBinPersID:
		pid, err := m.pop()
		if err != nil {
			return err
		}
		if m.d.PersistentLoad == nil {
			return errors.New("persistent ids are not supported here")
		}
		v, err := m.d.PersistentLoad(pid)
		if err != nil {
			return err
		}
		if v == nil {
			return errors.New("persistent load returned nothing")
		}
		return m.push(v)
	}
	if name, ok := opNames[op]; ok {
		return fmt.Errorf("opcode %s (0x%02x) is not supported", name, op)
	}
	return fmt.Errorf("invalid opcode 0x%02x", op)
}

// maxGlobalLen bounds the module and name of a global.
const maxGlobalLen = 256

func (m *machine) global(mod, name string) error {
	if len(mod) > maxGlobalLen || len(name) > maxGlobalLen {
		return fmt.Errorf("global name longer than %d bytes", maxGlobalLen)
	}
	v, err := m.d.Find(mod, name)
	if err != nil {
		return err
	}
	if v == nil {
		return fmt.Errorf("global %s.%s resolved to nothing", mod, name)
	}
	return m.push(v)
}

// readCounted reads a length-prefixed byte string: a 1-byte length for
// short, 4 bytes for long, 8 bytes otherwise.
func (m *machine) readCounted(op, short, long byte) ([]byte, error) {
	var n uint64
	switch op {
	case short:
		b, err := m.read(1)
		if err != nil {
			return nil, err
		}
		n = uint64(b[0])
	case long:
		b, err := m.read(4)
		if err != nil {
			return nil, err
		}
		n = uint64(binary.LittleEndian.Uint32(b))
	default:
		b, err := m.read(8)
		if err != nil {
			return nil, err
		}
		n = binary.LittleEndian.Uint64(b)
	}
	if n > uint64(len(m.data)-m.pos) {
		return nil, fmt.Errorf("length %d exceeds the %d bytes left", n, len(m.data)-m.pos)
	}
	return m.read(int(n))
}

func setItems(d *Dict, items []Value) error {
	if len(items)%2 != 0 {
		return fmt.Errorf("odd number of items (%d) for a dict", len(items))
	}
	for i := 0; i < len(items); i += 2 {
		if err := d.Set(items[i], items[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// decodeLong decodes a little-endian two's complement integer.
func decodeLong(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, nil
	}
	// Strip redundant sign-extension bytes so that long encodings of small
	// numbers are accepted.
	neg := b[len(b)-1]&0x80 != 0
	ext := byte(0)
	if neg {
		ext = 0xff
	}
	for len(b) > 1 && b[len(b)-1] == ext && (b[len(b)-2]&0x80 != 0) == neg {
		b = b[:len(b)-1]
	}
	if len(b) > 8 {
		return 0, fmt.Errorf("integer of %d bytes does not fit in 64 bits", len(b))
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if neg && len(b) < 8 {
		u |= ^uint64(0) << (8 * uint(len(b)))
	}
	return int64(u), nil
}
