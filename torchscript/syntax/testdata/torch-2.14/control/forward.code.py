def forward(self,
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
    if torch.eq(torch.remainder(i0, 2), 0):
      _5, _6, _7, _8, _9, _10, _11 = True, torch.lt(i0, n), q0, i0, _2, _0, _1
    else:
      if torch.gt(i0, 10):
        _12 = True
      else:
        if torch.lt(n, 0):
          _13 = torch.lt(i0, -1)
        else:
          _13 = False
        _12 = _13
      if _12:
        _14, _15, _16, _17, _18, _19, _20 = True, False, q0, i0, _2, _0, _1
      else:
        q1 = torch.add(q0, i0)
        _14, _15, _16, _17, _18, _19, _20 = False, _2, _0, _1, torch.lt(i0, n), q1, i0
      _5, _6, _7, _8, _9, _10, _11 = _14, _15, _16, _17, _18, _19, _20
    if _5:
      _21, _22, _23 = _6, _7, _8
    else:
      _21, _22, _23 = _9, _10, _11
    _4, q0, i = _21, _22, _23
  layers = self.layers
  _00 = getattr(layers, "0")
  _110 = getattr(layers, "1")
  q2 = (_00).forward(q0, )
  q3 = (_110).forward(q2, )
  _24 = [1, 2, 3]
  _25 = ops.prim.min([torch.len(flags), torch.len(_24)])
  q4 = q3
  for _26 in range(_25):
    a = flags[_26]
    b = _24[_26]
    if a:
      q5 = torch.add(q4, b)
    else:
      q5 = q4
    q4 = q5
  table = self.table
  _27 = torch.items(table)
  q6 = q4
  for _28 in range(torch.len(_27)):
    k, vv, = _27[_28]
    q6 = torch.add(q6, vv)
  d = {"mean": float(torch.mean(q6)), "neg_inf": -inf, "nan": nan, "e": 1.0000000000000001e-05, "big": 1e+20}
  c = __torch__.Counter.__new__(__torch__.Counter)
  _29 = (c).__init__(3, )
  _30 = (c).bump(2, )
  sq = annotate(List[int], [])
  for j in range(n):
    _31 = torch.append(sq, torch.mul(j, j))
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
  _32 = __torch__.torch.autograd.grad_mode.no_grad.__new__(__torch__.torch.autograd.grad_mode.no_grad)
  _33 = (_32).__init__()
  with _32:
    h0 = torch.add(h, 1)
  _34 = [1.5, 2.5]
  r = torch.ones([2, 3], dtype=7, layout=None, device=torch.device("cpu"))
  scaler = self.scaler
  s = (scaler).forward(x, 0.5, )
  _35 = torch.neg(torch.pow(x, 2))
  _36 = torch.bitwise_not(torch.sum(torch.tensor([1, 2])))
  _37 = torch.remainder(torch.mul(_36, torch.floordiv(n, 2)), 3)
  e = torch.__lshift__(torch.add(_35, _37), 1)
  _38 = isinstance(y0, Tensor)
  if _38:
    y2 = unchecked_cast(Tensor, y0)
    e0 = torch.add(e, torch.sum(y2))
  else:
    e0 = e
  print("debug", n, "ctrl")
  g = torch.add(torch.tensor([1., 2., 3.]), torch.mul(torch.tensor([[0.5]]), 3))
  _39 = torch.add(q6, __torch__.helper(h0, 2, 0.5, ))
  _40 = torch.add(torch.add(_39, torch.sum(s)), torch.sum(g))
  _41 = torch.add(torch.add(_40, float(m)), float(torch.len(dd)))
  _42 = torch.add(torch.add(_41, float(torch.len(cs))), _34[0])
  _43 = torch.add(_42, torch.sum(torch.to(e0, 6)))
  _44 = (torch.add(_43, torch.sum(r)), __torch__.Point(z0, n), d)
  return _44
