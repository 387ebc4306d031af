def forward(self,
    x: Tensor,
    c: __torch__.Color,
    p: __torch__.Point) -> Tuple[Tensor, str, __torch__.Color, int]:
  scaler = self.scaler
  y = torch.add((scaler).forward(x, 2., ), torch.tensor([0.25, -0.5]))
  if torch.eq(c, __torch__.Color.RED):
    y0 = torch.mul(y, (c).value)
  else:
    y0 = y
  if torch.gt((p)[1], 0):
    m : Optional[int] = (p)[1]
  else:
    m = None
  if torch.__isnot__(m, None):
    k = unchecked_cast(int, m)
  else:
    k = -1
  _0 = torch.add(y0, (p)[0])
  mask = self.mask
  _1 = (torch.add(_0, mask), torch.add(CONSTANTS.c0, (c).name), __torch__.Color.GREEN, k)
  return _1
