
import os
for i in range(200):
    d = os.path.join("assets", "d%03d" % i)
    os.makedirs(d, exist_ok=True)
    for j in range(100):
        with open(os.path.join(d, "f%03d.txt" % j), "w") as fh:
            fh.write("%d %d\n" % (i, j))
