package archive_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchscript/archive"
)

type record struct {
	name string
	data []byte
}

// records returns the records of a testdata archive, root folder included.
func records(t testing.TB, path string) []record {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var out []record
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		out = append(out, record{f.Name, data})
	}
	return out
}

// rezip writes records as an archive, after edit: it returns a record's
// new data, or nil to drop it.
func rezip(t testing.TB, recs []record, edit func(name string, data []byte) []byte, add ...record) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, r := range append(append([]record(nil), recs...), add...) {
		data := r.data
		if edit != nil && i < len(recs) {
			if data = edit(r.name[strings.IndexByte(r.name, '/')+1:], data); data == nil {
				continue
			}
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: r.name, Method: zip.Store})
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func read(b []byte) (*archive.Archive, error) {
	return archive.Read(bytes.NewReader(b), int64(len(b)))
}

// replace returns an edit that gives record name the data data.
func replace(name string, data string) func(string, []byte) []byte {
	return func(n string, d []byte) []byte {
		if n == name {
			return []byte(data)
		}
		return d
	}
}

func drop(name string) func(string, []byte) []byte {
	return func(n string, d []byte) []byte {
		if n == name {
			return nil
		}
		return d
	}
}

// pkl is a protocol 2 pickle of the given opcodes.
func pkl(ops string) string { return "\x80\x02" + ops + "." }

func TestHostileArchives(t *testing.T) {
	recs := records(t, "testdata/attrs.script.pt")
	for _, c := range []struct {
		name string
		edit func(string, []byte) []byte
		add  []record
		want []string // substrings of the error
	}{
		{"missing storage", drop("data/3"), nil, []string{"data.pkl", "data/3"}},
		{"missing data.pkl", drop("data.pkl"), nil, []string{"no data.pkl"}},
		{"missing version", drop("version"), nil, []string{"no version record"}},
		{"version 11", replace("version", "11\n"), nil, []string{"version", "format version 11"}},
		{"version 0", replace("version", "0"), nil, []string{"format version 0"}},
		{"version text", replace("version", "three"), nil, []string{"version", "not a version number"}},
		{"bad byteorder", replace("byteorder", "middle"), nil, []string{"byteorder", "middle"}},
		{"garbage pickle", replace("data.pkl", "\x80\x02\xff\xff"), nil, []string{"data.pkl", "pickle"}},
		{"truncated pickle", func(n string, d []byte) []byte {
			if n == "data.pkl" {
				return d[:len(d)/2]
			}
			return d
		}, nil, []string{"data.pkl", "before STOP"}},
		{"os.system", replace("data.pkl", pkl("cos\nsystem\n(X\x02\x00\x00\x00lstR")), nil, []string{"data.pkl", "os.system", "not allowed"}},
		{"quantized", replace("data.pkl", pkl("ctorch._utils\n_rebuild_qtensor\n)R")), nil, []string{"data.pkl", "_rebuild_qtensor", "quantized"}},
		{"sparse", replace("data.pkl", pkl("ctorch._utils\n_rebuild_sparse_tensor\n)R")), nil, []string{"_rebuild_sparse_tensor"}},
		{"qint storage", replace("data.pkl", pkl("ctorch\nQInt8Storage\n")), nil, []string{"torch.QInt8Storage"}},
		{"tensor table", replace("data.pkl", pkl("ctorch.jit._pickle\nbuild_tensor_from_id\n")), nil, []string{"build_tensor_from_id"}},
		{"bad intlist", replace("data.pkl", pkl("ctorch.jit._pickle\nbuild_intlist\n(](X\x01\x00\x00\x00aetR")), nil, []string{"data.pkl", "item 0 of a List[int] is str"}},
		{"bad type tag", replace("data.pkl", pkl("ctorch.jit._pickle\nrestore_type_tag\n(]X\x09\x00\x00\x00Dict[a,b]tR")), nil, []string{"a list tagged"}},
		{"class built twice", replace("data.pkl", pkl("c__torch__\nM\n)\x81}b}b")), nil, []string{"built twice"}},
		{"deep lists", replace("data.pkl", "\x80\x02"+strings.Repeat("]", 5000)+strings.Repeat("a", 4999)+"."), nil, []string{"nested more than"}},
		{"absurd storage", replace("data.pkl", pkl("ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpu\x8a\x06\x00\x00\x00\x00\x00\x01tQK\x00(K\x01tK\x01\x85\x89)tR")), nil, []string{"data.pkl", "storage \"0\""}},
		{"constants not a tuple", replace("constants.pkl", pkl("K\x01")), nil, []string{"constants.pkl", "not a tuple"}},
		{"legacy format", nil, []record{{"attrs.script/model.json", []byte("{}")}}, []string{"model.json", "protoVersion 0"}},
		{"not a module", replace("data.pkl", pkl("K\x01")), nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := read(rezip(t, recs, c.edit, c.add...))
			if c.want == nil {
				require.NoError(t, err)
				_, err = a.Root()
				require.ErrorContains(t, err, "not a module object")
				return
			}
			require.Error(t, err)
			for _, w := range c.want {
				require.ErrorContains(t, err, w)
			}
		})
	}
}

// TestAllVersions reads an archive under every version number PyTorch
// accepts: the layout is the same from 1 to 10.
func TestAllVersions(t *testing.T) {
	recs := records(t, "testdata/div.script.pt")
	for v := archive.MinVersion; v <= archive.MaxVersion; v++ {
		name := "version"
		if v >= 6 {
			name = ".data/version"
		}
		b := rezip(t, recs, drop("version"), record{"div.script/" + name, []byte(strconv.Itoa(v) + "\n")})
		a, err := read(b)
		require.NoError(t, err, "version %d", v)
		require.Equal(t, v, a.Version)
	}
}

func TestBadDebugInfo(t *testing.T) {
	recs := records(t, "testdata/div.script.pt")
	for _, c := range []struct{ pkl, want string }{
		{"garbage", "pickle"},
		{pkl("K\x01"), "not a tuple"},
		{pkl("(X\x18\x00\x00\x00FORMAT_WITH_STRING_TABLE)((K\x00((]K\x05K\x00tK\x00K\x00tK\x00ttt"), "outside the string table"},
		{pkl("((K\x00X\x01\x00\x00\x00xtt"), "source range is str"},
		{pkl("(K\x01\x85t"), "not a tuple of 2 or 3"},
		{pkl("cos\nsystem\n"), "not allowed"},
	} {
		b := rezip(t, recs, replace("code/__torch__.py.debug_pkl", c.pkl))
		a, err := read(b)
		require.NoError(t, err, "a bad debug_pkl does not keep the archive from loading")
		f, ok := a.Source("__torch__")
		require.True(t, ok)
		_, err = f.DebugInfo()
		require.ErrorContains(t, err, "code/__torch__.py.debug_pkl")
		require.ErrorContains(t, err, c.want)
	}
}

func TestTruncatedArchives(t *testing.T) {
	b, err := os.ReadFile("testdata/traced.trace.pt")
	require.NoError(t, err)
	for n := 0; n < len(b); n += 37 {
		_, err := read(b[:n])
		require.Error(t, err, "%d of %d bytes", n, len(b))
	}
}

func TestLimits(t *testing.T) {
	b, err := os.ReadFile("testdata/attrs.script.pt")
	require.NoError(t, err)
	_, err = archive.ReadWithLimits(bytes.NewReader(b), int64(len(b)), archive.Limits{MaxText: 100})
	require.ErrorContains(t, err, "code/__torch__.py")
	_, err = archive.ReadWithLimits(bytes.NewReader(b), int64(len(b)), archive.Limits{Tensor: torchio.Limits{MaxElements: 10}})
	require.ErrorContains(t, err, "MaxElements")
	_, err = archive.ReadWithLimits(bytes.NewReader(b), int64(len(b)), archive.Limits{Tensor: torchio.Limits{MaxPickleBytes: 100}})
	require.ErrorContains(t, err, "data.pkl")
}

func fuzzSeeds(t testing.TB) [][]byte {
	paths, err := filepath.Glob("testdata/*.pt")
	require.NoError(t, err)
	paths = append(paths, "testdata/legacy/legacy.pt")
	var seeds [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzRead reads mutated archives: any error is fine, a panic is not; what
// reads must give debug info and source ranges without panicking too.
func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := archive.Limits{MaxText: 1 << 20, Tensor: torchio.Limits{MaxElements: 1 << 20, MaxPickleBytes: 1 << 20}}
		a, err := archive.ReadWithLimits(bytes.NewReader(b), int64(len(b)), lim)
		if err != nil {
			return
		}
		_, _ = a.Root()
		for _, c := range a.Code {
			if d, err := c.DebugInfo(); err == nil {
				for _, r := range d.Records {
					_ = r.Range.String()
					_ = r.Range.Text()
				}
				_, _ = d.Lookup(len(c.Text) / 2)
			}
		}
	})
}

// FuzzDebugInfo decodes mutated debug_pkl records.
func FuzzDebugInfo(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		zr, err := zip.NewReader(bytes.NewReader(s), int64(len(s)))
		require.NoError(f, err)
		for _, zf := range zr.File {
			if strings.HasSuffix(zf.Name, ".debug_pkl") {
				rc, err := zf.Open()
				require.NoError(f, err)
				b, err := io.ReadAll(rc)
				require.NoError(f, err)
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := archive.DecodeDebugInfo(b, 1<<20)
		if err != nil {
			return
		}
		for _, r := range d.Records {
			_ = r.Range.String()
			_ = r.Range.Text()
			_, _ = d.Lookup(r.Offset)
		}
	})
}

// TestBigEndian reads traced.trace.pt with its storages byte-swapped and a
// "byteorder" record of "big": the same values come back.
func TestBigEndian(t *testing.T) {
	recs := records(t, "testdata/traced.trace.pt")
	swap := func(d []byte, size int) []byte {
		out := append([]byte(nil), d...)
		for i := 0; i+size <= len(out); i += size {
			for j := 0; j < size/2; j++ {
				out[i+j], out[i+size-1-j] = out[i+size-1-j], out[i+j]
			}
		}
		return out
	}
	b := rezip(t, recs, func(n string, d []byte) []byte {
		switch {
		case n == "byteorder":
			return []byte("big")
		case strings.HasPrefix(n, "data/"): // float32 weight and bias
			return swap(d, 4)
		case strings.HasPrefix(n, "constants/"): // the float64 constant
			return swap(d, 8)
		}
		return d
	})
	big, err := read(b)
	require.NoError(t, err)
	require.True(t, big.BigEndian)
	little := mustOpen(t, "testdata/traced.trace.pt")
	require.False(t, little.BigEndian)
	lr, _ := little.Root()
	br, _ := big.Root()
	lin, _ := lr.Attr("lin")
	blin, _ := br.Attr("lin")
	for _, name := range []string{"weight", "bias"} {
		w, _ := lin.(*archive.Object).Attr(name)
		g, _ := blin.(*archive.Object).Attr(name)
		require.Equal(t, w.(*tensor.Tensor).Float64s(), g.(*tensor.Tensor).Float64s(), name)
	}
	require.Equal(t, little.Constants[0].(*tensor.Tensor).Float64s(), big.Constants[0].(*tensor.Tensor).Float64s())
}
