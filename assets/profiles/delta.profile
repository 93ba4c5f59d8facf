# The Intel Touchstone Delta: Seidel, ORNL/TM-12356, Table II (the built-in seidel defaults,
# named so that a figure can say which machine it is under).  Not fitted: copied from the table.
name = delta
about = Intel Touchstone Delta, Seidel's Table II (a = 0.08 us/B, b = 75 us, rho = 0.01 us/B)
seidel.a = 0.08
seidel.b = 75
seidel.rho = 0.01
seidel.nu = 0
fit.source = Seidel ORNL/TM-12356 Table II (given, not fitted)
