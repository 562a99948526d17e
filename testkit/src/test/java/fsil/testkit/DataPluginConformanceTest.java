package fsil.testkit;

import fsil.data.Backbones;
import fsil.data.Datasets;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/** The conformance kits run on every built-in dataset and backbone. */
class DataPluginConformanceTest {
    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> datasets() throws Exception {
        Path csv = dir.resolve("small.csv");
        Files.writeString(csv, "a,b,y\n1,0,0\n1.1,0,0\n0.9,0,0\n0,1,1\n0,1.1,1\n0,0.9,1\n");
        Map<String, Map<String, String>> params = Map.of(
                "synthetic", Map.of("classes", "6", "dim", "4", "per_class", "3"),
                "glyphs", Map.of("scripts", "GREEK+LATIN", "max_per_script", "14"),
                "file", Map.of("path", csv.toString()),
                "dir", Map.of("path", directory().toString()));
        return Datasets.discover().all().stream().flatMap(d ->
                DatasetConformance.of(d).withParams(params.getOrDefault(d.id(), Map.of())).tests());
    }

    @TestFactory
    Stream<DynamicTest> backbones() {
        Map<String, Map<String, String>> params = Map.of(
                "pretrained-mlp", Map.of("hidden", "8", "epochs", "2", "batch", "16"));
        return Backbones.discover().all().stream().flatMap(b ->
                BackboneConformance.of(b).withParams(params.getOrDefault(b.id(), Map.of())).tests());
    }

    private static Path directory() throws Exception {
        Path d = dir.resolve("features");
        Files.createDirectories(d);
        float[][] x = new float[12][];
        int[] y = new int[12];
        for (int i = 0; i < 12; i++) {
            x[i] = new float[]{i % 3, i % 2, 1};
            y[i] = i % 3;
        }
        fsil.data.io.NpyWriter.writeFloat32(d.resolve("features.npy"), fsil.api.FeatureMatrix.of(toDouble(x)));
        fsil.data.io.NpyWriter.writeInt32(d.resolve("labels.npy"), y);
        return d;
    }

    private static double[][] toDouble(float[][] x) {
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            out[i] = new double[x[i].length];
            for (int j = 0; j < x[i].length; j++) {
                out[i][j] = x[i][j];
            }
        }
        return out;
    }
}
