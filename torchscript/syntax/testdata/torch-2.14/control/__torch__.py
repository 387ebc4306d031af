class Control(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  table : Dict[str, int]
  maybe : NoneType
  scaler : __torch__.Doubler
  layers : __torch__.torch.nn.modules.container.ModuleList
  lin : __torch__.torch.nn.modules.linear.Linear
  name : Final[str] = "ctrl"
  big : Final[int] = 9223372036854775807
  neg : Final[int] = -9223372036854775807
  def forward(self: __torch__.Control,
    x: Tensor,
    y: Optional[Tensor],
    n: int,
    flags: List[bool]) -> Tuple[Tensor, __torch__.Point, Dict[str, float]]:
    _0 = uninitialized(Tensor)
    _1 = uninitialized(int)
    _2 = uninitialized(bool)
    z = torch.slice(x, 0, 0, 2)
    if torch.__isnot__(y, None):
      y1 = unchecked_cast(Tensor, y)
      z1 = torch.add(z, torch.slice(y1, 0, 0, 2))
      z0, y0 = z1, y1
    else:
      if torch.gt(n, 3):
        _3 = torch.__not__(flags[0])
      else:
        _3 = False
      if _3:
        z2 = torch.sub(z, 1)
      else:
        z2 = torch.mul(z, inf)
      z0, y0 = z2, y
    q = torch.where(torch.isnan(z0), torch.zeros_like(z0), z0)
    q0 = q
    i = 0
    _4 = torch.lt(0, n)
    while _4:
      i0 = torch.add(i, 1)
      _5 = torch.eq(torch.remainder(i0, 2), 0)
      if _5:
        _6, _7, _8, _9, _10, _11, _12 = True, torch.lt(i0, n), q0, i0, _2, _0, _1
      else:
        if torch.gt(i0, 10):
          _13 = True
        else:
          if torch.lt(n, 0):
            _14 = torch.lt(i0, -1)
          else:
            _14 = False
          _13 = _14
        if _13:
          _15, _16, _17, _18, _19, _20, _21 = True, False, q0, i0, _2, _0, _1
        else:
          q1 = torch.add(q0, i0)
          _15, _16, _17, _18, _19, _20, _21 = False, _2, _0, _1, torch.lt(i0, n), q1, i0
        _6, _7, _8, _9, _10, _11, _12 = _15, _16, _17, _18, _19, _20, _21
      if _6:
        _22, _23, _24 = _7, _8, _9
      else:
        _22, _23, _24 = _10, _11, _12
      _4, q0, i = _22, _23, _24
    layers = self.layers
    _00 = getattr(layers, "0")
    _110 = getattr(layers, "1")
    q2 = (_00).forward(q0, )
    q3 = (_110).forward(q2, )
    _25 = [1, 2, 3]
    _26 = ops.prim.min([torch.len(flags), torch.len(_25)])
    q4 = q3
    for _27 in range(_26):
      a = flags[_27]
      b = _25[_27]
      if a:
        q5 = torch.add(q4, b)
      else:
        q5 = q4
      q4 = q5
    table = self.table
    _28 = torch.items(table)
    q6 = q4
    for _29 in range(torch.len(_28)):
      k, vv, = _28[_29]
      q6 = torch.add(q6, vv)
    d = {"mean": float(torch.mean(q6)), "neg_inf": -inf, "nan": nan, "e": 1.0000000000000001e-05, "big": 1e+20}
    c = __torch__.Counter.__new__(__torch__.Counter)
    _30 = (c).__init__(3, )
    _31 = (c).bump(2, )
    sq = annotate(List[int], [])
    for j in range(n):
      _32 = torch.append(sq, torch.mul(j, j))
    dd = annotate(Dict[str, int], {})
    for j0 in range(3):
      torch._set_item(dd, str(j0), j0)
    if torch.gt(torch.len(sq), 0):
      m = ops.prim.max(sq)
    else:
      m = -1
    cs = [1.5-2.j, 0.+2.5j]
    def __forked_function():
      return __torch__.helper(x, 3, 0.25, )
    fut = fork(__forked_function)
    h = torch.wait(fut)
    _33 = __torch__.torch.autograd.grad_mode.no_grad.__new__(__torch__.torch.autograd.grad_mode.no_grad)
    _34 = (_33).__init__()
    with _33:
      h0 = torch.add(h, 1)
    _35 = [1.5, 2.5]
    r = torch.ones([2, 3], dtype=7, layout=None, device=torch.device("cpu"))
    scaler = self.scaler
    s = (scaler).forward(x, 0.5, )
    _36 = torch.neg(torch.pow(x, 2))
    _37 = torch.bitwise_not(torch.sum(torch.tensor([1, 2])))
    _38 = torch.mul(_37, torch.floordiv(n, 2))
    _39 = torch.add(_36, torch.remainder(_38, 3))
    e = torch.__lshift__(_39, 1)
    _40 = isinstance(y0, Tensor)
    if _40:
      y2 = unchecked_cast(Tensor, y0)
      e0 = torch.add(e, torch.sum(y2))
    else:
      e0 = e
    print("debug", n, "ctrl")
    g = torch.add(torch.tensor([1., 2., 3.]), torch.mul(torch.tensor([[0.5]]), 3))
    _41 = torch.add(q6, __torch__.helper(h0, 2, 0.5, ))
    _42 = torch.add(torch.add(_41, torch.sum(s)), torch.sum(g))
    _43 = torch.add(torch.add(_42, float(m)), float(torch.len(dd)))
    _44 = torch.add(_43, float(torch.len(cs)))
    _45 = torch.add(torch.add(_44, _35[0]), torch.sum(torch.to(e0, 6)))
    _46 = (torch.add(_45, torch.sum(r)), __torch__.Point(z0, n), d)
    return _46
class Doubler(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  def forward(self: __torch__.Doubler,
    x: Tensor,
    k: float) -> Tensor:
    return torch.mul(torch.mul(x, 2.), k)
class Point(NamedTuple):
  x : Tensor
  y : int
def helper(x: Tensor,
    n: int=2,
    scale: float=0.5) -> Tensor:
  x0 = x
  for _47 in range(n):
    x0 = torch.mul(x0, scale)
  return x0
class Counter:
  n : int
  def __init__(self: __torch__.Counter,
    start: int) -> NoneType:
    self.n = start
    return None
  def bump(self: __torch__.Counter,
    by: int) -> int:
    n = self.n
    self.n = torch.add(n, by)
    return self.n
