package torchio_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

func TestValueRoundTrip(t *testing.T) {
	w := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	wt := tensor.Must(w.T())
	ids := tensor.Must(tensor.FromSlice([]int64{7, 8}, 2))
	kw := pickle.NewDict()
	require.NoError(t, kw.Set("scale", 0.5))
	require.NoError(t, kw.Set("n", int64(3)))
	require.NoError(t, kw.Set("flag", true))
	require.NoError(t, kw.Set("none", pickle.None{}))
	inner := pickle.NewDict()
	inner.Ordered = true
	require.NoError(t, inner.Set("ids", ids))
	v := pickle.Tuple{
		pickle.Tuple{&torchio.Parameter{Data: w, RequiresGrad: true}, wt, inner, &pickle.List{Items: []pickle.Value{"s", int64(-1 << 40)}}},
		kw,
	}
	var buf bytes.Buffer
	require.NoError(t, torchio.WriteValue(&buf, v))
	got, err := torchio.ReadValue(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)

	top := got.(pickle.Tuple)
	args := top[0].(pickle.Tuple)
	p := args[0].(*torchio.Parameter)
	assert.True(t, p.RequiresGrad)
	assert.Equal(t, []float32{1, 2, 3, 4, 5, 6}, tensor.Values[float32](p.Data))
	gt := args[1].(*tensor.Tensor)
	assert.True(t, gt.SharesStorage(p.Data), "the transposed view shares its parameter's storage")
	assert.Equal(t, []int{1, 3}, gt.Strides())
	d := args[2].(*pickle.Dict)
	assert.True(t, d.Ordered)
	gi, _ := d.Get("ids")
	assert.Equal(t, []int64{7, 8}, tensor.Values[int64](gi.(*tensor.Tensor)))
	assert.Equal(t, []pickle.Value{"s", int64(-1 << 40)}, args[3].(*pickle.List).Items)
	k := top[1].(*pickle.Dict)
	for key, want := range map[string]pickle.Value{"scale": 0.5, "n": int64(3), "flag": true, "none": pickle.None{}} {
		got, ok := k.Get(key)
		assert.True(t, ok)
		assert.Equal(t, want, got, key)
	}

	// The state dict reader unwraps Parameters.
	sd, err := torchio.Read(bytes.NewReader(mustStateDictFile(t, w)), int64(len(mustStateDictFile(t, w))))
	require.NoError(t, err)
	assert.Equal(t, []string{"w"}, sd.Names())
}

func mustStateDictFile(t *testing.T, w *tensor.Tensor) []byte {
	d := pickle.NewDict()
	require.NoError(t, d.Set("w", &torchio.Parameter{Data: w, RequiresGrad: true}))
	var buf bytes.Buffer
	require.NoError(t, torchio.WriteValue(&buf, d))
	return buf.Bytes()
}

func TestWriteValueErrors(t *testing.T) {
	l := &pickle.List{}
	l.Items = append(l.Items, l)
	assert.ErrorContains(t, torchio.WriteValue(&bytes.Buffer{}, l), "contains itself")
	assert.ErrorContains(t, torchio.WriteValue(&bytes.Buffer{}, struct{}{}), "cannot save")
	assert.ErrorContains(t, torchio.WriteValue(&bytes.Buffer{}, tensor.Must(tensor.NewMeta(tensor.Float32, 2))), "meta tensor")
}

func TestDecodeStorage(t *testing.T) {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint32(b, 0x3f800000)
	binary.LittleEndian.PutUint32(b[4:], 0x40000000)
	s, err := torchio.DecodeStorage(b, tensor.Float32, binary.LittleEndian)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2}, tensor.Values[float32](s))
	assert.Equal(t, 2, torchio.StorageNumel(s))
	var out bytes.Buffer
	require.NoError(t, torchio.WriteStorage(&out, s))
	assert.Equal(t, b, out.Bytes())
	_, err = torchio.DecodeStorage(b[:7], tensor.Float32, binary.LittleEndian)
	assert.ErrorContains(t, err, "7 bytes are not a whole number of 4-byte")
}

// TestSharedStructure: a pickle that shares a tuple through its memo at
// every level describes 2^200 leaves in a few hundred bytes; reading it must
// not walk them all, and writing it must stop at a bound.
func TestSharedStructure(t *testing.T) {
	var p bytes.Buffer
	p.WriteString("\x80\x02K\x01") // 1
	for range 200 {
		p.WriteString("q\x00h\x00\x86") // BINPUT 0; BINGET 0; TUPLE2: (x, x)
	}
	p.WriteString(".")
	data := zipFile(t, p.Bytes())
	v, err := torchio.ReadValue(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	err = torchio.WriteValue(&bytes.Buffer{}, v)
	assert.ErrorContains(t, err, "more than")
}

// zipFile is a torch.save zip with the given data.pkl.
func zipFile(t *testing.T, pkl []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, r := range []struct {
		name string
		data []byte
	}{{"archive/data.pkl", pkl}, {"archive/version", []byte("3\n")}} {
		w, err := zw.Create(r.name)
		require.NoError(t, err)
		_, err = w.Write(r.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}
