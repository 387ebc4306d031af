package pickle

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// Encoder writes a protocol 2 pickle opcode by opcode. Errors are sticky:
// after the first write error every method does nothing and Err (and
// Flush) return it.
type Encoder struct {
	w    *bufio.Writer
	err  error
	memo map[string]int // strings and globals already written, by key
}

// NewEncoder returns an Encoder that writes to w and has written the
// PROTO 2 header.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{w: bufio.NewWriter(w), memo: map[string]int{}}
	e.bytes(opProto, 2)
	return e
}

func (e *Encoder) bytes(b ...byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *Encoder) u32(op byte, n uint32) {
	var b [5]byte
	b[0] = op
	binary.LittleEndian.PutUint32(b[1:], n)
	e.bytes(b[:]...)
}

// Err returns the first error met.
func (e *Encoder) Err() error { return e.err }

// Flush writes buffered bytes to the underlying writer.
func (e *Encoder) Flush() error {
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.err
}

// memoized pushes the memoized value for key and reports true, or reports
// false if key has not been memoized.
func (e *Encoder) memoized(key string) bool {
	i, ok := e.memo[key]
	if !ok {
		return false
	}
	if i < 256 {
		e.bytes(opBinGet, byte(i))
	} else {
		e.u32(opLongBinGet, uint32(i))
	}
	return true
}

func (e *Encoder) remember(key string) {
	i := len(e.memo)
	e.memo[key] = i
	if i < 256 {
		e.bytes(opBinPut, byte(i))
	} else {
		e.u32(opLongBinPut, uint32(i))
	}
}

// Global pushes module.name (memoized).
func (e *Encoder) Global(module, name string) {
	key := "g" + module + "\n" + name
	if e.memoized(key) {
		return
	}
	if !validLine(module) || !validLine(name) {
		e.setErr(fmt.Errorf("pickle: invalid global name %q %q", module, name))
		return
	}
	e.bytes(opGlobal)
	e.bytes([]byte(module + "\n" + name + "\n")...)
	e.remember(key)
}

func validLine(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return false
		}
	}
	return s != "" && utf8.ValidString(s)
}

func (e *Encoder) setErr(err error) {
	if e.err == nil {
		e.err = err
	}
}

// String pushes a str (memoized). s must be valid UTF-8.
func (e *Encoder) String(s string) {
	if !utf8.ValidString(s) {
		e.setErr(fmt.Errorf("pickle: string %q is not valid UTF-8", s))
		return
	}
	key := "s" + s
	if e.memoized(key) {
		return
	}
	if uint64(len(s)) > math.MaxUint32 {
		e.setErr(fmt.Errorf("pickle: string of %d bytes is too long", len(s)))
		return
	}
	e.u32(opBinUnicode, uint32(len(s)))
	e.bytes([]byte(s)...)
	e.remember(key)
}

// Int pushes an int in the shortest encoding.
func (e *Encoder) Int(v int64) {
	switch {
	case v >= 0 && v < 1<<8:
		e.bytes(opBinInt1, byte(v))
	case v >= 0 && v < 1<<16:
		e.bytes(opBinInt2, byte(v), byte(v>>8))
	case v >= math.MinInt32 && v <= math.MaxInt32:
		e.u32(opBinInt, uint32(int32(v)))
	default:
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		n := 8
		// Drop redundant sign-extension bytes.
		for n > 1 && ((b[n-1] == 0 && b[n-2]&0x80 == 0) || (b[n-1] == 0xff && b[n-2]&0x80 != 0)) {
			n--
		}
		e.bytes(opLong1, byte(n))
		e.bytes(b[:n]...)
	}
}

// Float pushes a float.
func (e *Encoder) Float(v float64) {
	var b [9]byte
	b[0] = opBinFloat
	binary.BigEndian.PutUint64(b[1:], math.Float64bits(v))
	e.bytes(b[:]...)
}

// Bool pushes True or False.
func (e *Encoder) Bool(v bool) {
	if v {
		e.bytes(opNewTrue)
	} else {
		e.bytes(opNewFalse)
	}
}

// None pushes None.
func (e *Encoder) None() { e.bytes(opNone) }

// Mark pushes a mark.
func (e *Encoder) Mark() { e.bytes(opMark) }

// Tuple pops the values above the last mark and pushes them as a tuple.
func (e *Encoder) Tuple() { e.bytes(opTuple) }

// EmptyTuple pushes ().
func (e *Encoder) EmptyTuple() { e.bytes(opEmptyTuple) }

// EmptyDict pushes {}.
func (e *Encoder) EmptyDict() { e.bytes(opEmptyDict) }

// EmptyList pushes [].
func (e *Encoder) EmptyList() { e.bytes(opEmptyList) }

// Appends pops the values above the last mark and appends them to the
// list below it.
func (e *Encoder) Appends() { e.bytes(opAppends) }

// SetItems pops the key, value pairs above the last mark into the dict
// below it.
func (e *Encoder) SetItems() { e.bytes(opSetItems) }

// Reduce pops an argument tuple and a callable and pushes the call's result.
func (e *Encoder) Reduce() { e.bytes(opReduce) }

// BinPersID pops a persistent id and pushes what persistent_load makes of it.
func (e *Encoder) BinPersID() { e.bytes(opBinPersID) }

// Ints pushes a tuple of ints.
func (e *Encoder) Ints(vs []int) {
	switch len(vs) {
	case 0:
		e.EmptyTuple()
		return
	case 1, 2, 3:
		for _, v := range vs {
			e.Int(int64(v))
		}
		e.bytes(opTuple1 + byte(len(vs)-1))
		return
	}
	e.Mark()
	for _, v := range vs {
		e.Int(int64(v))
	}
	e.Tuple()
}

// Stop writes STOP and flushes.
func (e *Encoder) Stop() error {
	e.bytes(opStop)
	return e.Flush()
}
