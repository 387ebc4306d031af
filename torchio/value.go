package torchio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"strconv"
	"unicode/utf8"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio/pickle"
)

// Parameter is a tensor that torch.save pickled as a torch.nn.Parameter.
// ReadValue returns it where the file has one (state dicts unwrap it to its
// data); WriteValue pickles it with torch._utils._rebuild_parameter, which
// PyTorch needs where it checks for nn.Parameter (torch.export's state
// dicts).
type Parameter struct {
	Data         *tensor.Tensor
	RequiresGrad bool
}

// maxValueDepth bounds the nesting of the values ReadValue walks and
// WriteValue writes.
const maxValueDepth = 256

// ReadValue reads a torch.save file holding any value built from the
// allowlisted globals (see the package documentation) with DefaultLimits:
// the unpickled tree of None (pickle.None), bool, int64, float64, string,
// []byte, pickle.Tuple, *pickle.List, *pickle.Dict, *tensor.Tensor and
// *Parameter. Tensors that share a storage in the file share it here.
// torch.export's .pt2 files hold their example inputs this way, a tuple
// (args, kwargs).
func ReadValue(r io.ReaderAt, size int64) (pickle.Value, error) {
	return ReadValueWithLimits(r, size, DefaultLimits)
}

// ReadValueWithLimits is ReadValue with explicit limits.
func ReadValueWithLimits(r io.ReaderAt, size int64, lim Limits) (pickle.Value, error) {
	rd, err := openReader(r, size, lim)
	if err != nil {
		return nil, err
	}
	v, err := rd.unpickle()
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	var total int64
	err = walkValue(v, func(t *tensor.Tensor) error {
		total += int64(t.Numel())
		if total > rd.lim.MaxElements {
			return fmt.Errorf("the tensors hold more than %d elements in all (Limits.MaxElements)", rd.lim.MaxElements)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("torchio: data.pkl: %w", err)
	}
	return v, nil
}

// maxValueNodes bounds the values WriteValue writes: a pickle can share a
// container many times through its memo, and writing expands every use.
const maxValueNodes = 1 << 20

// walkValue calls f once for every distinct tensor of v, in pickle order (a
// Parameter's data included). A container reached again through the memo
// is not walked again, so shared structure costs nothing; a list or dict
// that contains itself is an error.
func walkValue(v pickle.Value, f func(*tensor.Tensor) error) error {
	onPath := map[any]bool{}
	done := map[any]bool{}
	seen := map[*tensor.Tensor]bool{}
	visit := func(t *tensor.Tensor) error {
		if seen[t] {
			return nil
		}
		seen[t] = true
		return f(t)
	}
	var walk func(v pickle.Value, depth int) error
	walk = func(v pickle.Value, depth int) error {
		if depth > maxValueDepth {
			return fmt.Errorf("values nested more than %d deep", maxValueDepth)
		}
		var id any
		switch v := v.(type) {
		case *tensor.Tensor:
			return visit(v)
		case *Parameter:
			if v.Data == nil {
				return errors.New("a Parameter without data")
			}
			return visit(v.Data)
		case pickle.Tuple:
			if len(v) == 0 {
				return nil
			}
			id = &v[0]
		case *pickle.List:
			id = v
		case *pickle.Dict:
			id = v
		default:
			return nil
		}
		if done[id] {
			return nil
		}
		if onPath[id] {
			return fmt.Errorf("a %s contains itself", pickle.TypeName(v))
		}
		onPath[id] = true
		var items []pickle.Value
		switch v := v.(type) {
		case pickle.Tuple:
			items = v
		case *pickle.List:
			items = v.Items
		case *pickle.Dict:
			items = append(append(items, v.Keys()...), v.Values()...)
		}
		for _, e := range items {
			if err := walk(e, depth+1); err != nil {
				return err
			}
		}
		delete(onPath, id)
		done[id] = true
		return nil
	}
	return walk(v, 0)
}

// WriteValue writes v to w in torch.save's zip format. v is a tree of the
// types ReadValue returns (nil is None; int is accepted as well as int64);
// tensors sharing a storage share it in the file, each storage written
// whole. Dicts are written as dicts (OrderedDicts when Ordered), tuples as
// tuples, lists as lists; torch.load gives back the same tree.
func WriteValue(w io.Writer, v pickle.Value) error {
	var storages []*savedStorage
	byID := map[any]*savedStorage{}
	of := map[*tensor.Tensor]*savedStorage{}
	err := walkValue(v, func(t *tensor.Tensor) error {
		if t.IsMeta() {
			return errors.New("a meta tensor has no data to save")
		}
		if !t.DType().Valid() {
			return fmt.Errorf("invalid dtype %v", t.DType())
		}
		if of[t] != nil {
			return nil
		}
		id, n := storageOf(t)
		s := byID[id]
		if s == nil || id == nil {
			s = &savedStorage{key: strconv.Itoa(len(storages)), t: t, n: n}
			storages = append(storages, s)
			if id != nil {
				byID[id] = s
			}
		}
		of[t] = s
		return nil
	})
	if err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	var pkl bytes.Buffer
	e := pickle.NewEncoder(&pkl)
	budget := maxValueNodes
	if err := pickleValue(e, v, of, &budget); err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	if err := e.Stop(); err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	if err := writeArchive(w, pkl.Bytes(), storages); err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	return nil
}

// pickleTensor pushes _rebuild_tensor_v2(storage, offset, size, stride,
// False, OrderedDict()) as torch.save writes a tensor.
func pickleTensor(e *pickle.Encoder, t *tensor.Tensor, s *savedStorage) {
	e.Global("torch._utils", "_rebuild_tensor_v2")
	e.Mark()
	e.Mark()
	e.String("storage")
	e.Global("torch", storageNames[t.DType()])
	e.String(s.key)
	e.String("cpu")
	e.Int(int64(s.n))
	e.Tuple()
	e.BinPersID()
	e.Int(int64(t.Offset()))
	e.Ints(t.Shape())
	e.Ints(t.Strides())
	e.Bool(false)
	e.Global("collections", "OrderedDict")
	e.EmptyTuple()
	e.Reduce()
	e.Tuple()
	e.Reduce()
}

func pickleValue(e *pickle.Encoder, v pickle.Value, of map[*tensor.Tensor]*savedStorage, budget *int) error {
	if *budget--; *budget < 0 {
		return fmt.Errorf("the value has more than %d parts (shared containers are written once per use)", maxValueNodes)
	}
	switch v := v.(type) {
	case nil, pickle.None:
		e.None()
	case bool:
		e.Bool(v)
	case int:
		e.Int(int64(v))
	case int64:
		e.Int(v)
	case float64:
		e.Float(v)
	case string:
		if !utf8.ValidString(v) {
			return fmt.Errorf("string %q is not valid UTF-8", v)
		}
		e.String(v)
	case *tensor.Tensor:
		pickleTensor(e, v, of[v])
	case *Parameter:
		e.Global("torch._utils", "_rebuild_parameter")
		e.Mark()
		pickleTensor(e, v.Data, of[v.Data])
		e.Bool(v.RequiresGrad)
		e.Global("collections", "OrderedDict")
		e.EmptyTuple()
		e.Reduce()
		e.Tuple()
		e.Reduce()
	case pickle.Tuple:
		if len(v) == 0 {
			e.EmptyTuple()
			return nil
		}
		e.Mark()
		for _, x := range v {
			if err := pickleValue(e, x, of, budget); err != nil {
				return err
			}
		}
		e.Tuple()
	case *pickle.List:
		e.EmptyList()
		if len(v.Items) > 0 {
			e.Mark()
			for _, x := range v.Items {
				if err := pickleValue(e, x, of, budget); err != nil {
					return err
				}
			}
			e.Appends()
		}
	case *pickle.Dict:
		if v.Ordered {
			e.Global("collections", "OrderedDict")
			e.EmptyTuple()
			e.Reduce()
		} else {
			e.EmptyDict()
		}
		if v.Len() > 0 {
			e.Mark()
			for i, k := range v.Keys() {
				if err := pickleValue(e, k, of, budget); err != nil {
					return err
				}
				if err := pickleValue(e, v.Values()[i], of, budget); err != nil {
					return err
				}
			}
			e.SetItems()
		}
	default:
		return fmt.Errorf("cannot save a %s", pickle.TypeName(v))
	}
	return nil
}

// DecodeStorage returns the elements of a raw storage record (the bytes of
// a PyTorch untyped storage, as the PT2 archive stores weights) as a
// one-dimensional tensor of len(data)/dt.Size() elements. A length that is
// not a multiple of the element size is an error.
func DecodeStorage(data []byte, dt tensor.DType, bo binary.ByteOrder) (*tensor.Tensor, error) {
	return ReadStorage(bytes.NewReader(data), int64(len(data)), dt, bo)
}

// ReadStorage is DecodeStorage on the n bytes r gives (a raw storage
// record read in place, without a copy of its bytes).
func ReadStorage(r io.Reader, n int64, dt tensor.DType, bo binary.ByteOrder) (*tensor.Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("torchio: invalid dtype %v", dt)
	}
	size := int64(dt.Size())
	if n < 0 || n%size != 0 {
		return nil, fmt.Errorf("torchio: %d bytes are not a whole number of %d-byte %v elements", n, size, dt)
	}
	if n/size > int64(tensor.MaxElements) {
		return nil, fmt.Errorf("torchio: %d elements exceed the tensor limit", n/size)
	}
	return readStorage(r, dt, int(n/size), bo)
}

// StorageNumel returns the number of elements of t's whole storage (not
// just the part t views).
func StorageNumel(t *tensor.Tensor) int {
	_, n := storageOf(t)
	return n
}

// WriteStorage writes t's whole storage, little-endian, as PyTorch stores
// raw storage records.
func WriteStorage(w io.Writer, t *tensor.Tensor) error {
	if t.IsMeta() {
		return errors.New("torchio: a meta tensor has no data to save")
	}
	if err := writeStorage(w, t); err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	return nil
}
