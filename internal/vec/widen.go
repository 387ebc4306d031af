package vec

// widenAsm is the widening-accumulation assembly this CPU and build allow
// (nil: none); like poolAsm it is used only while asm is, so GOFX_VEC=portable
// and SetPortable select the portable loop for it too.
var widenAsm func(acc *float64, x *float32, n int)

// AddWiden sets acc[i] += float64(x[i]) for i < len(acc): one row of a
// column sum of float32 rows accumulated in float64, each element one
// exact conversion and one IEEE double addition, so the assembly and the
// portable loop agree bit for bit. x must hold at least len(acc) elements.
func AddWiden(acc []float64, x []float32) {
	n := len(acc)
	if n == 0 {
		return
	}
	x = x[:n]
	k := 0
	if widenAsm != nil && asm != nil {
		if k = n &^ 7; k > 0 {
			widenAsm(&acc[0], &x[0], k)
		}
	}
	addWidenGo(acc[k:], x[k:])
}

func addWidenGo(acc []float64, x []float32) {
	x = x[:len(acc)]
	for i, v := range x {
		acc[i] += float64(v)
	}
}
