package fsil.bench.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.data.io.NpyReader;
import fsil.methods.ppca.PpcaFitAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The numpy side of the fit comparison ({@code benchmarks/numpy/ppca_fit_numpy.py}) fits the model fsil fits: on a
 * small export of the power-law classes, each of the authors' paths (the HPPCA notebook's SVD of the covariance, the
 * PPCA notebook's SVD of the centred data) and LAPACK's eigh print the first class's leading variances, and they
 * agree with fsil's fit of the same file. Runs only where Debian's numpy is installed (python3-numpy; PYTHON
 * overrides /usr/bin/python3), as the comparison itself.
 */
class PpcaFitNumpyTest {
    private static final Pattern TOP3 = Pattern.compile("first_class_top3=\\[([^\\]]*)\\]");

    @Test
    void everyNumpyPathPrintsTheVariancesFsilFits(@TempDir Path dir) throws Exception {
        String py = System.getenv().getOrDefault("PYTHON", "/usr/bin/python3");
        assumeTrue(Files.isExecutable(Path.of(py)), "no " + py);
        assumeTrue(run(List.of(py, "-c", "import numpy")).exitCode == 0, "no numpy for " + py);
        Path script = Path.of("numpy/ppca_fit_numpy.py").toAbsolutePath();
        assertTrue(Files.isRegularFile(script), script.toString());

        PpcaFitCpuTiming.main(new String[]{"export", dir.toString(), "classes=3", "per_class=120", "dim=80"});
        FeatureMatrix x = NpyReader.read(dir.resolve("features.npy")).toFeatureMatrix();
        int[] y = NpyReader.read(dir.resolve("labels.npy")).toLabels();
        double[] fsil = PpcaFitAccess.fit(Map.of("q", "10", "solver", "full", "covariance", "biased"),
                new LabeledData(x, y)).firstClassVariances();

        for (String[] algo : new String[][]{{"svd", "float32"}, {"datasvd", "float32"}, {"eigh", "float64"}}) {
            Result r = run(List.of(py, script.toString(), dir.toString(), "q=10", "algo=" + algo[0],
                    "dtype=" + algo[1], "warmup=1"));
            assertEquals(0, r.exitCode, r.output);
            assertTrue(r.output.startsWith("numpy " + algo[1] + " " + algo[0] + " ms_cpu_per_class="), r.output);
            assertTrue(r.output.contains(" classes=3 "), r.output);
            Matcher m = TOP3.matcher(r.output);
            assertTrue(m.find(), r.output);
            double[] top = Arrays.stream(m.group(1).trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
            assertEquals(3, top.length, r.output);
            for (int i = 0; i < 3; i++) {
                // float32 data and arithmetic in numpy, printed to 6 significant digits
                assertEquals(fsil[i], top[i], 1e-4 * fsil[i], algo[0] + " variance " + i + ": " + r.output);
            }
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        pb.environment().put("OPENBLAS_NUM_THREADS", "1");
        pb.environment().put("OMP_NUM_THREADS", "1");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Result(-1, e.toString());
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
