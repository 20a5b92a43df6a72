"""Box-filter tiles one wave tall (`tile:W/groups_per_cu:k`): the height a run reports (`tile_h`) is
the least multiple of the band that leaves at most k groups a compute unit over the image, and the
outputs of such tiles verify.
Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_wave_tiles"""
import json
import math
import os
import re
import subprocess
import tempfile
import unittest

from cli_support import GPU_BENCH, require_device

FILTER = "^L1/BoxFilter/tiled_slide/type:float/radius:(15|31)/tile:[0-9]+/groups_per_cu:[0-9]+/wg"


class WaveTiles(unittest.TestCase):
    def test_the_height_is_the_least_that_leaves_k_groups_a_unit(self):
        require_device()
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "wave.json")
            done = subprocess.run([GPU_BENCH, "--verify_only", "--progress=0", f"--benchmark_filter={FILTER}",
                                   f"--benchmark_out={out}", "--benchmark_out_format=json"],
                                  capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, done.stderr[-2000:])
            with open(out) as f:
                run = json.load(f)
        units = int(run["context"]["compute_units"])
        self.assertEqual(len(run["benchmarks"]), 2)
        for b in run["benchmarks"]:
            name = b["name"]
            self.assertFalse(b.get("error_occurred"), b.get("error_message"))
            m = re.search(r"/tile:(\d+)/groups_per_cu:(\d+)/(band:(\d+)/)?", name)
            tile_w, k, band = int(m[1]), int(m[2]), int(m[4] or 8)
            w, h, tile_h = int(b["width"]), int(b["height"]), int(b["tile_h"])
            across = math.ceil(w / tile_w)

            def groups(th):
                return across * math.ceil(h / th)

            self.assertEqual(tile_h % band, 0, name)
            self.assertLessEqual(groups(tile_h), max(k * units, across), name)  # one tile row at least
            if tile_h > band:
                self.assertGreater(groups(tile_h - band), k * units, name)


if __name__ == "__main__":
    unittest.main()
