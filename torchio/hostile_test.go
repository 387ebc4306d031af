package torchio_test

import (
	"archive/zip"
	"bytes"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

type entry struct {
	name string
	data []byte
}

// archive builds a stored zip of entries under "archive/".
func archive(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "archive/" + e.name, Method: zip.Store})
		require.NoError(t, err)
		_, err = w.Write(e.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// tensorPickle returns a data.pkl of OrderedDict{name: _rebuild_tensor_v2(
// storage(storageType, key, numel), offset, size, stride, False,
// OrderedDict())}.
func tensorPickle(name, storageType, key string, numel, offset int, size, stride []int) []byte {
	var buf bytes.Buffer
	e := pickle.NewEncoder(&buf)
	e.Global("collections", "OrderedDict")
	e.EmptyTuple()
	e.Reduce()
	e.Mark()
	e.String(name)
	e.Global("torch._utils", "_rebuild_tensor_v2")
	e.Mark()
	e.Mark()
	e.String("storage")
	e.Global("torch", storageType)
	e.String(key)
	e.String("cpu")
	e.Int(int64(numel))
	e.Tuple()
	e.BinPersID()
	e.Int(int64(offset))
	e.Ints(size)
	e.Ints(stride)
	e.Bool(false)
	e.Global("collections", "OrderedDict")
	e.EmptyTuple()
	e.Reduce()
	e.Tuple()
	e.Reduce()
	e.SetItems()
	if err := e.Stop(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// rawPickle wraps raw opcodes after PROTO 2.
func rawPickle(ops string) []byte { return []byte("\x80\x02" + ops) }

func read(b []byte) (*torchio.StateDict, error) {
	return torchio.Read(bytes.NewReader(b), int64(len(b)))
}

func TestHostileFiles(t *testing.T) {
	f8 := make([]byte, 8*4) // 8 float32 zeros
	version := entry{"version", []byte("3\n")}
	ok := func(size, stride []int, offset int) []byte {
		return archive(t, entry{"data.pkl", tensorPickle("w", "FloatStorage", "0", 8, offset, size, stride)}, entry{"data/0", f8}, version)
	}
	mustLoad := ok([]int{2, 4}, []int{4, 1}, 0)
	_, err := read(mustLoad)
	require.NoError(t, err, "the well-formed base case loads")

	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"os.system", archive(t, entry{"data.pkl", rawPickle("cos\nsystem\nX\x02\x00\x00\x00lsR.")}, version),
			"torchio: data.pkl: pickle: GLOBAL at byte 2: global os.system is not allowed"},
		{"builtins.eval via STACK_GLOBAL", archive(t, entry{"data.pkl", []byte("\x80\x04\x8c\x08builtins\x8c\x04eval\x93.")}),
			"global builtins.eval is not allowed"},
		{"quantized tensor", archive(t, entry{"data.pkl", rawPickle("ctorch._utils\n_rebuild_qtensor\n.")}),
			"global torch._utils._rebuild_qtensor is not allowed"},
		{"unknown storage class", archive(t, entry{"data.pkl", tensorPickle("w", "ComplexFloatStorage", "0", 8, 0, []int{8}, []int{1})}, entry{"data/0", f8}),
			"global torch.ComplexFloatStorage is not allowed"},
		{"size beyond storage", ok([]int{3, 4}, []int{4, 1}, 0), "out of bounds for storage of size 8"},
		{"offset beyond storage", ok([]int{4}, []int{1}, 5), "out of bounds"},
		{"stride beyond storage", ok([]int{2, 2}, []int{7, 1}, 0), "out of bounds"},
		{"huge size", ok([]int{1 << 40, 1 << 40}, []int{1, 1}, 0), "more than 2^40 elements"},
		{"overflowing stride", ok([]int{2, 2}, []int{1 << 61, 1}, 0), "out of range"},
		{"storage larger than entry", archive(t, entry{"data.pkl", tensorPickle("w", "FloatStorage", "0", 9, 0, []int{8}, []int{1})}, entry{"data/0", f8}),
			`storage "0": 9 float32 elements need 36 bytes but data/0 has 32`},
		{"huge storage", archive(t, entry{"data.pkl", tensorPickle("w", "DoubleStorage", "0", 1<<42, 0, []int{8}, []int{1})}, entry{"data/0", f8}),
			"need 35184372088832 bytes but data/0 has 32"},
		{"storage size out of range", archive(t, entry{"data.pkl", tensorPickle("w", "DoubleStorage", "0", 1<<50, 0, []int{8}, []int{1})}, entry{"data/0", f8}),
			"storage size 1125899906842624 is out of range"},
		{"missing storage", archive(t, entry{"data.pkl", tensorPickle("w", "FloatStorage", "7", 8, 0, []int{8}, []int{1})}),
			`storage "7": archive has no data/7`},
		{"missing data.pkl", archive(t, version), "archive has no data.pkl"},
		{"bad version", archive(t, entry{"version", []byte("three")}), "invalid format version"},
		{"bad byteorder", archive(t, entry{"byteorder", []byte("middle")}), "unknown byte order"},
		{"not a zip", []byte("hello, world"), "not a torch.save zip archive"},
		{"empty file", nil, "not a torch.save zip archive"},
		{"legacy format", append([]byte{0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19}, 0, 0), "legacy (pre-1.6) format"},
		{"torchscript", archive(t, entry{"data.pkl", rawPickle("N.")}, entry{"constants.pkl", rawPickle(").")}, entry{"code/__torch__/m.py", nil}),
			"TorchScript archive"},
		{"entry outside an archive folder", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create("data.pkl")
			w.Write(rawPickle("N."))
			zw.Close()
			return buf.Bytes()
		}(), "not inside an archive folder"},
		{"int at top level", archive(t, entry{"data.pkl", rawPickle("K\x03.")}), "the file holds int, not a state dict"},
		{"non-tensor value", archive(t, entry{"data.pkl", rawPickle("}X\x05\x00\x00\x00epochK\x03s.")}), `value of "epoch" is int, not a tensor`},
		{"int key", archive(t, entry{"data.pkl", rawPickle("}K\x01K\x03s.")}), "key 1 is int, not a str"},
		{"list of ints", archive(t, entry{"data.pkl", rawPickle("](K\x01e.")}), "item 0 is int, not a tensor"},
		{"self-nested dict", archive(t, entry{"data.pkl", rawPickle("}q\x00X\x01\x00\x00\x00ah\x00s.")}), "nested more than 32 deep"},
		{"deep MARK nesting", archive(t, entry{"data.pkl", rawPickle(strings.Repeat("(", 5000) + ".")}), "nested MARKs"},
		{"memo index out of range", archive(t, entry{"data.pkl", rawPickle("Nr\xff\xff\xff\x7f.")}), "out of range"},
		{"memo never stored", archive(t, entry{"data.pkl", rawPickle("j\x00\x01\x00\x00.")}), "never stored"},
		{"truncated pickle", archive(t, entry{"data.pkl", tensorPickle("w", "FloatStorage", "0", 8, 0, []int{8}, []int{1})[:40]}), "data.pkl: pickle:"},
		{"bad persistent id", archive(t, entry{"data.pkl", rawPickle("X\x03\x00\x00\x00abcQ.")}), "persistent id must be a tuple"},
		{"persistent id kind", archive(t, entry{"data.pkl", rawPickle("X\x03\x00\x00\x00abc\x85Q.")}), `unsupported persistent id kind (str "abc")`},
		{"rebuild of a non-storage", archive(t, entry{"data.pkl", rawPickle("ctorch._utils\n_rebuild_tensor_v2\n(NK\x00)))\x89Nt" + "R.")}),
			"storage is None, not a persistent storage"},
		{"rebuild arity", archive(t, entry{"data.pkl", rawPickle("ctorch._utils\n_rebuild_tensor_v2\n)R.")}), "expected 6 or 7 arguments, got 0"},
		{"parameter of a non-tensor", archive(t, entry{"data.pkl", rawPickle("ctorch._utils\n_rebuild_parameter\nN\x89N\x87R.")}), "data is None, not a tensor"},
		{"too many dims", ok(make([]int, 65), make([]int, 65), 0), "more than 64"},
		{"negative offset", archive(t, entry{"data.pkl", tensorPickle("w", "FloatStorage", "0", 8, -1, []int{8}, []int{1})}, entry{"data/0", f8}), "storage offset -1 is out of range"},
		{"storage reused with another dtype", func() []byte {
			var buf bytes.Buffer
			e := pickle.NewEncoder(&buf)
			for _, st := range []string{"FloatStorage", "IntStorage"} {
				e.Mark()
				e.String("storage")
				e.Global("torch", st)
				e.String("0")
				e.String("cpu")
				e.Int(8)
				e.Tuple()
				e.BinPersID()
			}
			e.Bool(false) // not reached
			require.NoError(t, e.Stop())
			return archive(t, entry{"data.pkl", buf.Bytes()}, entry{"data/0", f8})
		}(), "used as 8 float32 elements and as 8 int32 elements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(tc.file)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "torchio: "), err.Error())
		})
	}
}

// rawArchive builds a zip whose one entry claims the given sizes and method
// over data, as a hostile writer would.
func rawArchive(t *testing.T, name string, method uint16, data []byte, size uint64) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "archive/" + name, Method: method,
		CRC32: crc32.ChecksumIEEE(data), CompressedSize64: uint64(len(data)), UncompressedSize64: size})
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestZipBombsAndSizes(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"deflate bomb", rawArchive(t, "data.pkl", zip.Deflate, []byte{3, 0}, 1<<40), "cannot expand to"},
		{"stored size mismatch", rawArchive(t, "data.pkl", zip.Store, rawPickle("N."), 1<<30), "stored entry has compressed size"},
		{"unknown method", rawArchive(t, "data.pkl", 99, rawPickle("N."), 4), "unsupported compression method 99"},
		{"bad checksum", func() []byte {
			b := archive(t, entry{"data.pkl", rawPickle("}.")})
			i := bytes.Index(b, []byte("\x80\x02}."))
			b[i+2] = ']' // same length, different bytes
			return b
		}(), "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(tc.file)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLimits(t *testing.T) {
	b, err := os.ReadFile("testdata/zoo/mlp.state_dict.pt")
	require.NoError(t, err)
	_, err = torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), torchio.Limits{MaxPickleBytes: 100})
	assert.ErrorContains(t, err, "data.pkl: 475 bytes exceed the limit of 100")
	_, err = torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), torchio.Limits{MaxStorageBytes: 3000})
	assert.ErrorContains(t, err, "storages exceed the limit of 3000 bytes")
	_, err = torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), torchio.Limits{Pickle: pickle.Limits{MaxMemo: 10}})
	assert.ErrorContains(t, err, "memo exceeds 10 entries")
}

func TestTruncatedFiles(t *testing.T) {
	b, err := os.ReadFile("testdata/views.pt")
	require.NoError(t, err)
	for n := 0; n < len(b); n++ {
		_, err := read(b[:n])
		require.Error(t, err, "file cut at %d of %d bytes", n, len(b))
	}
}

// fuzzSeeds returns every fixture file.
func fuzzSeeds(t testing.TB) [][]byte {
	paths, _ := filepath.Glob("testdata/*.pt")
	zoo, _ := filepath.Glob("testdata/zoo/*.pt")
	var out [][]byte
	for _, p := range append(paths, zoo...) {
		if fi, err := os.Stat(p); err != nil || fi.Size() > 16<<10 {
			continue // keep the corpus small
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}

func FuzzLoad(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := torchio.Limits{MaxPickleBytes: 1 << 20, MaxStorageBytes: 1 << 20, MaxElements: 1 << 20}
		sd, err := torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), lim)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "torchio: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		// Whatever loads must be readable and must write back.
		for _, tt := range sd.All() {
			_ = tt.Float64s()
		}
		var buf bytes.Buffer
		if err := torchio.Write(&buf, sd); err != nil {
			t.Fatalf("loaded state dict does not write back: %v", err)
		}
	})
}

// TestMaxElements: views can declare far more elements than their storage
// holds (stride 0); the reader bounds the total.
func TestMaxElements(t *testing.T) {
	b, err := os.ReadFile("../testdata/models/mlp.state_dict.pt")
	require.NoError(t, err)
	_, err = torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), torchio.Limits{MaxElements: 600})
	require.ErrorContains(t, err, "more than 600 elements in all (Limits.MaxElements)")
	sd, err := torchio.ReadWithLimits(bytes.NewReader(b), int64(len(b)), torchio.Limits{MaxElements: 874})
	require.NoError(t, err)
	require.Equal(t, 4, sd.Len())
}
