package pickle_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchio/pickle"
)

func TestEncoderRoundTrip(t *testing.T) {
	ints := []int64{0, 1, 255, 256, 65535, 65536, -1, -129, math.MinInt32, math.MaxInt32,
		math.MaxInt32 + 1, math.MinInt32 - 1, 1 << 40, -1 << 40, math.MaxInt64, math.MinInt64}
	var buf bytes.Buffer
	e := pickle.NewEncoder(&buf)
	e.Mark()
	for _, v := range ints {
		e.Int(v)
	}
	e.String("hé")
	e.String("hé") // memoized
	e.Float(-2.5)
	e.Bool(true)
	e.Bool(false)
	e.None()
	for n := range 6 {
		e.Ints(make([]int, n))
	}
	e.Global("test", "echo")
	e.Global("test", "echo") // memoized
	e.EmptyTuple()
	e.Reduce()
	e.Reduce()
	e.EmptyList()
	e.Mark()
	e.Int(3)
	e.Appends()
	e.EmptyDict()
	e.Mark()
	e.String("k")
	e.Int(1)
	e.SetItems()
	e.Int(9)
	e.BinPersID()
	e.Tuple()
	require.NoError(t, e.Stop())

	v, err := decode(buf.Bytes(), pickle.Limits{})
	require.NoError(t, err)
	got := v.(pickle.Tuple)
	want := pickle.Tuple{}
	for _, v := range ints {
		want = append(want, v)
	}
	want = append(want, "hé", "hé", -2.5, true, false, pickle.None{})
	for n := range 6 {
		z := make(pickle.Tuple, n)
		for i := range z {
			z[i] = int64(0)
		}
		want = append(want, z)
	}
	want = append(want, pickle.Tuple{}) // echo(*echo()): the inner () is the argument tuple
	require.Len(t, got, len(want)+3)
	assert.Equal(t, want, got[:len(want)])
	assert.Equal(t, &pickle.List{Items: []pickle.Value{int64(3)}}, got[len(want)])
	d := got[len(want)+1].(*pickle.Dict)
	k, _ := d.Get("k")
	assert.Equal(t, int64(1), k)
	assert.Equal(t, pickle.Tuple{"pid", int64(9)}, got[len(want)+2])
}

func TestEncoderErrors(t *testing.T) {
	var buf bytes.Buffer
	e := pickle.NewEncoder(&buf)
	e.String("\xff")
	assert.ErrorContains(t, e.Err(), "not valid UTF-8")
	e = pickle.NewEncoder(&buf)
	e.Global("a\nb", "c")
	assert.ErrorContains(t, e.Stop(), "invalid global")
}

func TestEncoderManyMemoEntries(t *testing.T) {
	// More than 256 memoized strings switch to LONG_BINPUT/LONG_BINGET.
	var buf bytes.Buffer
	e := pickle.NewEncoder(&buf)
	e.Mark()
	for i := range 300 {
		e.String(string(rune('a'+i%26)) + string(rune(0x100+i)))
	}
	e.String(string(rune('a'+299%26)) + string(rune(0x100+299)))
	e.Tuple()
	require.NoError(t, e.Stop())
	v, err := decode(buf.Bytes(), pickle.Limits{})
	require.NoError(t, err)
	tup := v.(pickle.Tuple)
	require.Len(t, tup, 301)
	assert.Equal(t, tup[299], tup[300])
}
