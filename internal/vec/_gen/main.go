// Command _gen writes internal/vec/vec_amd64.s, the AVX2 loops of
// vec_amd64.go, to standard output:
//
//	go run ./_gen > vec_amd64.s   (in internal/vec; or go generate)
//
// Every loop has one shape (4 vectors a step, then 1), so the file is
// generated rather than written by hand; CI checks it is current.
package main

import (
	"fmt"
	"os"
	"strings"
)

var out []string

func emit(lines ...string) { out = append(out, lines...) }

// loop emits one function: setup loads the arguments (n scaled to bytes in
// CX), body4 handles 128 bytes at AX, body1 32 bytes.
func loop(name, argsize string, setup, body4, body1 []string) {
	loopFinish(name, argsize, setup, body4, body1, nil)
}

// loopFinish is loop with the lines of finish run after the loop, before
// the return (a reduction's combining and result).
func loopFinish(name, argsize string, setup, body4, body1, finish []string) {
	emit("// func "+name, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT, $%s", name, argsize))
	emit(setup...)
	emit("\tXORQ AX, AX", "loop4:", "\tMOVQ CX, BX", "\tSUBQ AX, BX", "\tCMPQ BX, $128", "\tJLT  loop1")
	emit(body4...)
	emit("\tADDQ $128, AX", "\tJMP  loop4", "loop1:", "\tCMPQ AX, CX", "\tJGE  done")
	emit(body1...)
	emit("\tADDQ $32, AX", "\tJMP  loop1", "done:")
	emit(finish...)
	emit("\tVZEROUPPER", "\tRET", "")
}

// each returns f(r) for the four registers of a step.
func each(f func(r int) string) []string {
	var l []string
	for r := range 4 {
		l = append(l, f(r))
	}
	return l
}

func cat(ls ...[]string) []string {
	var all []string
	for _, l := range ls {
		all = append(all, l...)
	}
	return all
}

func main() {
	emit("//go:build !purego", "", `#include "textflag.h"`, "",
		"// AVX2 loops of vec_amd64.go. Each handles n elements, n a multiple of",
		"// the vector width (8 float32 or 4 float64): 4 vectors a step, then 1.", "")
	ops := []struct{ name, ins string }{{"add", "ADD"}, {"sub", "SUB"}, {"mul", "MUL"}, {"div", "DIV"}}
	for _, ty := range []struct {
		t, p, s string
		shift   int
	}{{"F32", "PS", "SS", 2}, {"F64", "PD", "SD", 3}} {
		t, p, s, shift := ty.t, ty.p, ty.s, ty.shift
		mov := "VMOVUP" + p[1:]
		load := func(r int) string { return fmt.Sprintf("\t%s %d(SI)(AX*1), Y%d", mov, 32*r, r) }
		store := func(r int) string { return fmt.Sprintf("\t%s Y%d, %d(DI)(AX*1)", mov, r, 32*r) }
		load1, store1 := fmt.Sprintf("\t%s (SI)(AX*1), Y0", mov), fmt.Sprintf("\t%s Y0, (DI)(AX*1)", mov)
		scale := fmt.Sprintf("\tSHLQ $%d, CX", shift)
		for _, op := range ops {
			ins := "V" + op.ins + p
			// vv: dst = x op y
			setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ y+16(FP), DX", "\tMOVQ n+24(FP), CX", scale}
			b4 := cat(each(load), each(func(r int) string { return fmt.Sprintf("\t%s %d(DX)(AX*1), Y%d, Y%d", ins, 32*r, r, r) }), each(store))
			b1 := []string{load1, fmt.Sprintf("\t%s (DX)(AX*1), Y0, Y0", ins), store1}
			loop(op.name+t, "0-32", setup, b4, b1)
			// vs: dst = x op s; sv: dst = s op y
			for _, kind := range []string{"VS", "SV"} {
				argsize := "0-32"
				if t == "F32" {
					argsize = "0-28"
				}
				src := "x"
				if kind == "SV" {
					src = "y"
				}
				setup := []string{"\tMOVQ dst+0(FP), DI", fmt.Sprintf("\tMOVQ %s+8(FP), SI", src), "\tMOVQ n+16(FP), CX", scale, fmt.Sprintf("\tVBROADCAST%s s+24(FP), Y15", s)}
				apply := func(r int) string {
					if kind == "VS" {
						return fmt.Sprintf("\t%s Y15, Y%d, Y%d", ins, r, r)
					}
					return fmt.Sprintf("\t%s Y%d, Y15, Y%d", ins, r, r)
				}
				b4 := cat(each(load), each(apply), each(store))
				b1 := []string{load1, apply(0), store1}
				loop(op.name+kind+t, argsize, setup, b4, b1)
			}
		}
		// relu: dst = x < 0 ? 0 : x (mask = x < 0; dst = andnot(mask, x))
		setup := []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", scale, fmt.Sprintf("\tVXOR%s Y15, Y15, Y15", p)}
		cmp := func(a string) func(r int) string {
			return func(r int) string { return fmt.Sprintf("\tVCMP%s $1, %s, Y%d, Y%d", p, a, r, r+4) }
		}
		b4 := cat(each(load), each(cmp("Y15")), each(func(r int) string { return fmt.Sprintf("\tVANDN%s Y%d, Y%d, Y%d", p, r, r+4, r) }), each(store))
		b1 := []string{load1, fmt.Sprintf("\tVCMP%s $1, Y15, Y0, Y4", p), fmt.Sprintf("\tVANDN%s Y0, Y4, Y0", p), store1}
		loop("relu"+t, "0-24", setup, b4, b1)
		// clamp: r = x < lo ? lo : x; r = hi < r ? hi : r
		argsize, hoff := "0-40", 32
		if t == "F32" {
			argsize, hoff = "0-32", 28
		}
		setup = []string{"\tMOVQ dst+0(FP), DI", "\tMOVQ x+8(FP), SI", "\tMOVQ n+16(FP), CX", scale,
			fmt.Sprintf("\tVBROADCAST%s lo+24(FP), Y14", s), fmt.Sprintf("\tVBROADCAST%s hi+%d(FP), Y15", s, hoff)}
		blend := func(b string) func(r int) string {
			return func(r int) string { return fmt.Sprintf("\tVBLENDV%s Y%d, %s, Y%d, Y%d", p, r+4, b, r, r) }
		}
		hiLess := func(r int) string { return fmt.Sprintf("\tVCMP%s $1, Y%d, Y15, Y%d", p, r, r+4) }
		b4 = cat(each(load), each(cmp("Y14")), each(blend("Y14")), each(hiLess), each(blend("Y15")), each(store))
		b1 = []string{load1, fmt.Sprintf("\tVCMP%s $1, Y14, Y0, Y4", p), fmt.Sprintf("\tVBLENDV%s Y4, Y14, Y0, Y0", p),
			fmt.Sprintf("\tVCMP%s $1, Y0, Y15, Y4", p), fmt.Sprintf("\tVBLENDV%s Y4, Y15, Y0, Y0", p), store1}
		loop("clamp"+t, argsize, setup, b4, b1)
	}
	rows()
	poolLoops()
	epilogueLoops()
	if _, err := os.Stdout.WriteString(strings.Join(out, "\n") + "\n"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
