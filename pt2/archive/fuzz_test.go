package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds Read arbitrary bytes, seeded with the .pt2 files in
// testdata: it must return an archive or an error, never panic or allocate
// what a header merely claims; an archive it accepts must write (when its
// program fits its layout) and read back.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.pt2")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	lim := Limits{MaxRecordBytes: 1 << 24}
	lim.Tensor.MaxElements = 1 << 20
	lim.Tensor.MaxPickleBytes = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ReadWithLimits(bytes.NewReader(data), int64(len(data)), lim)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := a.Write(&buf); err != nil {
			return // e.g. a 8.2 program holding 8.3+ fields cannot be written in 8.2's form
		}
		if _, err := ReadWithLimits(bytes.NewReader(buf.Bytes()), int64(buf.Len()), lim); err != nil {
			t.Fatalf("reading what Write wrote: %v", err)
		}
	})
}

// TestMutations runs Read on deterministic mutations of the testdata files
// (byte flips, truncations), what FuzzRead explores at random: every one
// must give an archive or an error, never a panic.
func TestMutations(t *testing.T) {
	seeds, _ := filepath.Glob("testdata/*.pt2")
	lim := Limits{MaxRecordBytes: 1 << 24}
	lim.Tensor.MaxElements = 1 << 20
	state := uint64(1)
	next := func(n int) int {
		state = state*6364136223846793005 + 1442695040888963407
		return int((state >> 33) % uint64(n))
	}
	for _, s := range seeds {
		orig, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 150 {
			b := bytes.Clone(orig)
			switch i % 3 {
			case 0:
				b = b[:next(len(b))]
			default:
				for range 1 + next(8) {
					b[next(len(b))] ^= byte(1 + next(255))
				}
			}
			a, err := ReadWithLimits(bytes.NewReader(b), int64(len(b)), lim)
			if err == nil {
				_ = a.Write(&bytes.Buffer{})
			}
		}
	}
}

// TestRecordMutations mutates one record at a time and re-zips, so that
// the checksum holds and the parsers behind it (JSON, configs, nested
// torch.save files, raw storages) see the damage.
func TestRecordMutations(t *testing.T) {
	seeds, _ := filepath.Glob("testdata/*.pt2")
	lim := Limits{MaxRecordBytes: 1 << 24}
	lim.Tensor.MaxElements = 1 << 20
	state := uint64(7)
	next := func(n int) int {
		if n <= 0 {
			return 0
		}
		state = state*6364136223846793005 + 1442695040888963407
		return int((state >> 33) % uint64(n))
	}
	for _, s := range seeds {
		recs := readRecords(t, s)
		for i := range 40 * len(recs) {
			r := i % len(recs)
			mutated := make([]record, len(recs))
			copy(mutated, recs)
			d := bytes.Clone(recs[r].data)
			switch {
			case len(d) == 0:
				d = []byte{byte(next(256))}
			case i%4 == 0:
				d = d[:next(len(d))]
			default:
				for range 1 + next(4) {
					d[next(len(d))] = byte(next(256))
				}
			}
			mutated[r].data = d
			b := zipOf(t, mutated)
			a, err := ReadWithLimits(bytes.NewReader(b), int64(len(b)), lim)
			if err == nil {
				_ = a.Write(&bytes.Buffer{})
			}
		}
	}
}
