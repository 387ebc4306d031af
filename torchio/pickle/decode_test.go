package pickle_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchio/pickle"
)

// find allows collections.OrderedDict and, for tests, test.echo (returns
// its arguments); it refuses everything else.
func find(module, name string) (pickle.Value, error) {
	switch module + "." + name {
	case "collections.OrderedDict":
		return pickle.OrderedDict, nil
	case "test.echo":
		return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) { return args, nil }), nil
	case "test.global":
		return pickle.Global{Module: module, Name: name}, nil
	}
	return nil, fmt.Errorf("global %s.%s is %w", module, name, pickle.ErrNotAllowed)
}

func decode(data []byte, lim pickle.Limits) (pickle.Value, error) {
	d := pickle.Decoder{Find: find, Limits: lim,
		PersistentLoad: func(pid pickle.Value) (pickle.Value, error) {
			return pickle.Tuple{"pid", pid}, nil
		}}
	return d.Unpickle(data)
}

func u32(n int) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(n))
	return string(b[:])
}

func TestUnpickleValues(t *testing.T) {
	var f [8]byte
	binary.BigEndian.PutUint64(f[:], math.Float64bits(1.5))
	for _, tc := range []struct {
		name string
		in   string
		want pickle.Value
	}{
		{"none", "N.", pickle.None{}},
		{"true false", "\x88\x89\x86.", pickle.Tuple{true, false}},
		{"binint1", "K\x05.", int64(5)},
		{"binint2", "M\x00\x01.", int64(256)},
		{"binint negative", "J\xff\xff\xff\xff.", int64(-1)},
		{"long1 empty", "\x8a\x00.", int64(0)},
		{"long1 -1", "\x8a\x01\xff.", int64(-1)},
		{"long1 max", "\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f.", int64(math.MaxInt64)},
		{"long1 min", "\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80.", int64(math.MinInt64)},
		{"long1 padded", "\x8a\x09\x01\x00\x00\x00\x00\x00\x00\x00\x00.", int64(1)},
		{"long1 padded negative", "\x8a\x09\xfe\xff\xff\xff\xff\xff\xff\xff\xff.", int64(-2)},
		{"long4", "\x8b\x02\x00\x00\x00\x00\x01.", int64(256)},
		{"binfloat", "G" + string(f[:]) + ".", 1.5},
		{"binunicode", "X" + u32(6) + "h\xc3\xa9llo.", "héllo"},
		{"short binunicode", "\x8c\x02ab.", "ab"},
		{"binunicode8", "\x8d\x02\x00\x00\x00\x00\x00\x00\x00ab.", "ab"},
		{"short binstring", "U\x02ab.", "ab"},
		{"binbytes", "B\x02\x00\x00\x00\x00\xff.", []byte{0, 255}},
		{"short binbytes", "C\x01z.", []byte("z")},
		{"empty tuple", ").", pickle.Tuple{}},
		{"tuple1", "K\x01\x85.", pickle.Tuple{int64(1)}},
		{"tuple3", "K\x01K\x02K\x03\x87.", pickle.Tuple{int64(1), int64(2), int64(3)}},
		{"tuple", "(K\x01K\x02K\x03K\x04t.", pickle.Tuple{int64(1), int64(2), int64(3), int64(4)}},
		{"list appends", "](K\x01K\x02eK\x03a.", &pickle.List{Items: []pickle.Value{int64(1), int64(2), int64(3)}}},
		{"list op", "(K\x01l.", &pickle.List{Items: []pickle.Value{int64(1)}}},
		{"memo", "K\x07q\x00h\x00r" + u32(300) + "j" + u32(300) + "\x87.", pickle.Tuple{int64(7), int64(7), int64(7)}},
		{"memoize", "K\x07\x94h\x00\x86.", pickle.Tuple{int64(7), int64(7)}},
		{"dup pop", "K\x01\x32K\x020\x86.", pickle.Tuple{int64(1), int64(1)}},
		{"pop mark", "K\x01(K\x02K\x031.", int64(1)},
		{"pop of a bare mark", "K\x01(0.", int64(1)},
		{"reduce", "ctest\necho\nK\x01\x85R.", pickle.Tuple{int64(1)}},
		{"newobj", "ctest\necho\n)\x81.", pickle.Tuple{}},
		{"global value", "ctest\nglobal\n.", pickle.Global{Module: "test", Name: "global"}},
		{"stack global", "\x8c\x04test\x8c\x04echo\x93).R.", pickle.Tuple{}},
		{"persistent id", "K\x01Q.", pickle.Tuple{"pid", int64(1)}},
		{"proto 4 frame", "\x80\x04\x95\x03\x00\x00\x00\x00\x00\x00\x00K\x01.", int64(1)},
		{"trailing bytes", "N.garbage", pickle.None{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decode([]byte(tc.in), pickle.Limits{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestUnpickleDicts(t *testing.T) {
	// OrderedDict() with items, then BUILD of {'_metadata': {'': {'version': 1}}}.
	in := "\x80\x02ccollections\nOrderedDict\nq\x00)R(X\x01\x00\x00\x00bK\x02X\x01\x00\x00\x00aK\x01u" +
		"}X\x09\x00\x00\x00_metadata}X\x00\x00\x00\x00}X\x07\x00\x00\x00versionK\x01sssb."
	v, err := decode([]byte(in), pickle.Limits{})
	require.NoError(t, err)
	d, ok := v.(*pickle.Dict)
	require.True(t, ok)
	assert.True(t, d.Ordered)
	assert.Equal(t, []pickle.Value{"b", "a"}, d.Keys())
	assert.Equal(t, []pickle.Value{int64(2), int64(1)}, d.Values())
	require.NotNil(t, d.Attrs)
	md, ok := d.Attrs.Get("_metadata")
	require.True(t, ok)
	assert.Equal(t, 1, md.(*pickle.Dict).Len())

	// Dict keys: re-setting keeps the position; 1, 1.0 and True are one key.
	v, err = decode([]byte("}(K\x01X\x01\x00\x00\x00aG?\xf0\x00\x00\x00\x00\x00\x00X\x01\x00\x00\x00b\x88X\x01\x00\x00\x00cu."), pickle.Limits{})
	require.NoError(t, err)
	d = v.(*pickle.Dict)
	assert.Equal(t, []pickle.Value{int64(1)}, d.Keys())
	got, _ := d.Get(int64(1))
	assert.Equal(t, "c", got)

	// DICT opcode and a (state, slotstate) BUILD.
	v, err = decode([]byte("(X\x01\x00\x00\x00kNd}N\x86b."), pickle.Limits{})
	require.NoError(t, err)
	d = v.(*pickle.Dict)
	assert.Equal(t, 1, d.Len())
	assert.NotNil(t, d.Attrs)
}

func TestUnpickleErrors(t *testing.T) {
	deep := strings.Repeat("(", 2000) + "."
	for _, tc := range []struct {
		name string
		in   string
		lim  pickle.Limits
		want string
	}{
		{"forbidden global", "\x80\x02cos\nsystem\nX\x02\x00\x00\x00lsR.", pickle.Limits{}, "GLOBAL at byte 2: global os.system is not allowed"},
		{"forbidden stack global", "\x8c\x08builtins\x8c\x04eval\x93.", pickle.Limits{}, "global builtins.eval is not allowed"},
		{"long global name", "c" + strings.Repeat("a", 300) + "\nb\n.", pickle.Limits{}, "longer than"},
		{"stack global of ints", "K\x01K\x02\x93.", pickle.Limits{}, "must be str"},
		{"empty input", "", pickle.Limits{}, "ends before STOP"},
		{"no stop", "K\x01", pickle.Limits{}, "ends before STOP"},
		{"stop on empty stack", ".", pickle.Limits{}, "STOP at byte 0: stack underflow"},
		{"tuple without mark", "K\x01t.", pickle.Limits{}, "no MARK"},
		{"tuple2 underflow", "K\x01\x86.", pickle.Limits{}, "underflow"},
		{"pop below mark", "K\x01(K\x02\x86.", pickle.Limits{}, "underflow"},
		{"truncated binunicode", "X\x05\x00\x00\x00ab", pickle.Limits{}, "exceeds the 2 bytes left"},
		{"truncated binint", "J\x01\x00", pickle.Limits{}, "truncated"},
		{"huge binunicode8", "\x8d\xff\xff\xff\xff\xff\xff\xff\xff.", pickle.Limits{}, "exceeds"},
		{"invalid utf-8", "X\x01\x00\x00\x00\xff.", pickle.Limits{}, "UTF-8"},
		{"long too big", "\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.", pickle.Limits{}, "does not fit in 64 bits"},
		{"long4 negative count", "\x8b\xff\xff\xff\xff.", pickle.Limits{}, "negative byte count"},
		{"memo never stored", "h\x03.", pickle.Limits{}, "memo index 3 was never stored"},
		{"memo index out of range", "K\x01r\xff\xff\xff\xff.", pickle.Limits{}, "out of range"},
		{"memo full", "K\x01q\x00q\x01q\x02.", pickle.Limits{MaxMemo: 2}, "memo exceeds 2 entries"},
		{"binput on empty stack", "q\x00.", pickle.Limits{}, "underflow"},
		{"stack overflow", strings.Repeat("N", 11) + ".", pickle.Limits{MaxStack: 10}, "stack exceeds 10 values"},
		{"deep nesting", deep, pickle.Limits{}, "more than 1000 nested MARKs"},
		{"text opcode", "I1\n.", pickle.Limits{}, "opcode INT (0x49) is not supported"},
		{"ext opcode", "\x82\x01.", pickle.Limits{}, "EXT1"},
		{"invalid opcode", "\xff.", pickle.Limits{}, "invalid opcode 0xff"},
		{"protocol 6", "\x80\x06N.", pickle.Limits{}, "unsupported protocol 6"},
		{"reduce non-callable", "N)R.", pickle.Limits{}, "None is not callable"},
		{"reduce non-tuple args", "ctest\necho\nNR.", pickle.Limits{}, "arguments must be a tuple"},
		{"ordered dict with args", "ccollections\nOrderedDict\n]\x85R.", pickle.Limits{}, "expected no arguments"},
		{"build on int", "K\x01}b.", pickle.Limits{}, "cannot set the state of int"},
		{"build with int state", "}K\x01b.", pickle.Limits{}, "dict state must be"},
		{"append to tuple", ")K\x01a.", pickle.Limits{}, "cannot append to tuple"},
		{"setitem on list", "]K\x01K\x02s.", pickle.Limits{}, "cannot set an item of list"},
		{"odd setitems", "}(K\x01u.", pickle.Limits{}, "odd number"},
		{"unhashable key", "}]K\x01s.", pickle.Limits{}, "list is not supported as a dict key"},
		{"long key", "}X" + u32(5000) + strings.Repeat("k", 5000) + "K\x01s.", pickle.Limits{}, "exceeds 4096"},
		{"nan key", "}G\x7f\xf8\x00\x00\x00\x00\x00\x00K\x01s.", pickle.Limits{}, "NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode([]byte(tc.in), tc.lim)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var pe *pickle.Error
			assert.True(t, errors.As(err, &pe), "error is a *pickle.Error")
		})
	}
}

func TestNotAllowedIsWrapped(t *testing.T) {
	_, err := decode([]byte("cos\nsystem\n."), pickle.Limits{})
	assert.ErrorIs(t, err, pickle.ErrNotAllowed)
}

func TestNoPersistentLoad(t *testing.T) {
	d := pickle.Decoder{Find: find}
	_, err := d.Unpickle([]byte("K\x01Q."))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "persistent ids are not supported")
	_, err = (&pickle.Decoder{}).Unpickle([]byte("N."))
	assert.Error(t, err)
}

// fixturePickles returns the data.pkl of every fixture archive, as fuzz
// seeds.
func fixturePickles(t testing.TB) [][]byte {
	var out [][]byte
	paths, _ := filepath.Glob("../testdata/*.pt")
	zoo, _ := filepath.Glob("../testdata/zoo/*.pt")
	for _, p := range append(paths, zoo...) {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, "/data.pkl") {
				rc, err := f.Open()
				require.NoError(t, err)
				data, err := io.ReadAll(rc)
				require.NoError(t, err)
				out = append(out, data)
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

func TestUnpickleFixtures(t *testing.T) {
	// Every fixture's data.pkl decodes; tensors are REDUCEs of globals this
	// find refuses, so allow them as echoes here.
	allow := func(module, name string) (pickle.Value, error) {
		if v, err := find(module, name); err == nil {
			return v, nil
		}
		if strings.HasPrefix(module, "torch") {
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) { return args, nil }), nil
		}
		return nil, fmt.Errorf("global %s.%s is %w", module, name, pickle.ErrNotAllowed)
	}
	for _, data := range fixturePickles(t) {
		d := pickle.Decoder{Find: allow, PersistentLoad: func(pid pickle.Value) (pickle.Value, error) { return pid, nil }}
		_, err := d.Unpickle(data)
		assert.NoError(t, err)
	}
}

func FuzzUnpickle(f *testing.F) {
	for _, data := range fixturePickles(f) {
		f.Add(data)
	}
	f.Add([]byte("\x80\x02ccollections\nOrderedDict\nq\x00)R(X\x01\x00\x00\x00aK\x01u}b."))
	f.Add([]byte("\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00\x8c\x04test\x8c\x04echo\x93\x94).R."))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data, pickle.Limits{MaxMemo: 1000, MaxStack: 10000, MaxMarks: 100})
		if err == nil && v == nil {
			t.Fatal("nil value without an error")
		}
		if err != nil {
			var pe *pickle.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *pickle.Error", err)
			}
		}
	})
}

type rawFunc func(pickle.Value) (pickle.Value, error)

func (f rawFunc) CallRaw(v pickle.Value) (pickle.Value, error) { return f(v) }

// TestReduceRaw: a REDUCE whose argument is not a tuple calls a
// RawCallable (TorchScript's enum values) and is an error otherwise.
func TestReduceRaw(t *testing.T) {
	data := []byte("\x80\x02cm\nE\nK\x02R.")
	d := pickle.Decoder{Find: func(module, name string) (pickle.Value, error) {
		return rawFunc(func(v pickle.Value) (pickle.Value, error) { return pickle.Tuple{"E", v}, nil }), nil
	}}
	v, err := d.Unpickle(data)
	if err != nil || fmt.Sprint(v) != "[E 2]" {
		t.Fatalf("got %v, %v", v, err)
	}
	d.Find = func(module, name string) (pickle.Value, error) { return pickle.OrderedDict, nil }
	if _, err := d.Unpickle(data); err == nil || !strings.Contains(err.Error(), "arguments must be a tuple") {
		t.Fatalf("got %v", err)
	}
}
