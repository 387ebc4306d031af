# Run: ../shared/tools/torch2 gen_sympy.py | grep -v UCX > sympy.tsv (from sym/testdata).
# Makes sym/testdata/sympy.tsv: sympy expressions as torch.export writes them (srepr and
# str), each with its value at s0=3, s1=5, s6=7, s11=2, u0=4 (relations: 1 or 0).
import sympy, json
from torch.utils._sympy.functions import FloorDiv, ModularIndexing, CleanDiv, CeilDiv, PythonMod, Mod, Max, Min, PowByNatural, Identity
s0=sympy.Symbol('s0',positive=True,integer=True); s1=sympy.Symbol('s1',positive=True,integer=True)
s6=sympy.Symbol('s6',positive=True,integer=True); s11=sympy.Symbol('s11',positive=True,integer=True)
u0=sympy.Symbol('u0',integer=True)
vals={s0:3,s1:5,s6:7,s11:2,u0:4}
es=[s0, 2*s0, s0*s1, -s0+4, 8*s0, 4*s1**2, s11**2, s0*s1+s6-7, Mod(s0,2), FloorDiv(s0,2), FloorDiv(s0*s1+1,4),
    Max(2,s0), Min(s0,s1), Max(s0,s1,s6), CeilDiv(s0,2), ModularIndexing(s1,2,2), PythonMod(s1,3), CleanDiv(4*s0,2),
    u0, 2*u0-1, -u0, Mod(s0*s1,4)+FloorDiv(s6,3)*2, s0-s1, sympy.Integer(-1), sympy.Integer(0), sympy.Integer(7), 3-2*u0,
    sympy.Ge(u0,0), sympy.Lt(u0,6), sympy.Gt(s0,4), sympy.Le(s1,5), sympy.Eq(s0,2*s11-1), sympy.Ne(s0,1), sympy.Eq(Mod(s0,2),1)]
out=[]
for e in es:
    v=e.subs(vals)
    if isinstance(v,(sympy.logic.boolalg.BooleanTrue,sympy.logic.boolalg.BooleanFalse)) or v in (sympy.true,sympy.false):
        v=1 if bool(v) else 0; kind='cond'
    else:
        v=int(v); kind='expr'
    out.append('\t'.join([kind, sympy.srepr(e), str(e), str(v)]))
print('\n'.join(out))
