# The Intel Paragon of the s-to-p paper (Scalable S-To-P Broadcasting on Message-Passing MPPs), fitted to the times its text gives.
# Only two times in our copy determine constants (Section 5.1, Fig. 6): 80K bytes in total on
# a 10x10 mesh, right-diagonal sources, Br_xy_source: 11.4 ms from 5 sources (16K each),
# 7.3 ms from 40 (2K each).  Under seidel, lockstep, the simulated costs are linear in a and b:
# 327680 a + 10 b and 253952 a + 12 b (meshcast run --net mesh:10x10 --algo br-xy-source
# --sources Dr:5 --bytes 16K --set a=1 --set b=0 --set rho=0, and --set a=0 --set b=1; the
# same with Dr:40 --bytes 2K).  The exact solution has b = -361 us (not a latency), so the fit
# is least squares with b >= 0: the bound is active, b = 0, and
# a = (327680*11400 + 253952*7300) / (327680^2 + 253952^2) = 0.032522 us/B.
# Error: 10657 us against 11.4 ms (-6.5%), 8259 us against 7.3 ms (+13.1%); rms 10.4%.
# rho and nu are not determined by the text: Table II's rho = 0.01, nu = 0.
name = paragon
about = Intel Paragon, s-to-p paper Fig. 6 times (11.4, 7.3 ms), least squares b >= 0: a = 0.032522, b = 0
seidel.a = 0.032522
seidel.b = 0
seidel.rho = 0.01
seidel.nu = 0
fit.points = 2 (Fig. 6: Dr:5 16K -> 11.4 ms, Dr:40 2K -> 7.3 ms; br-xy-source, mesh:10x10, lockstep)
fit.method = least squares, b >= 0 (unconstrained: a = 0.045812, b = -361.18)
fit.error = -6.5% and +13.1% (rms 10.4%)
