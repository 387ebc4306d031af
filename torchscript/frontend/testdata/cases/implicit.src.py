def forward(x: Tensor, n: int, f: float, b: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, float]:
    a = torch.select(x, 0, torch.sum(x))
    d = torch.full([2], torch.sum(x))
    e = torch.add(x, b)
    h = x.view(2, -1)
    j = torch.ones(2, 3)
    k = torch.add(float(n), f)
    m = torch.clamp(x, min=0)
    p = x.max(dim=0)
    q = p[0]
    r = torch.zeros(n, n, dtype=6)
    return (torch.add(a, d), torch.add(e, h), torch.add(j, m), q, r, k)
