package fsil.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.data.io.AtomicFiles;
import fsil.data.io.NpyReader;
import fsil.data.io.NpyWriter;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The features a learnt backbone computed, cached under {@code <cache>/features/<24 hex digits of SHA-256(key)>/} as
 * {@code train.npy}, {@code test.npy} (float32) and {@code meta.json}, each written atomically, meta.json last: a
 * directory with all three is complete. One cache for every backbone that learns ({@link Backbone}'s contract).
 */
public final class FeatureCache {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private FeatureCache() {
    }

    /**
     * What a backbone computes when the cache misses.
     *
     * @param train the features of every training sample, in the dataset's order
     * @param test  the features of every test sample
     * @param meta  what meta.json records after the key, dataset, backbone, seed and number of base classes
     */
    public record Computed(FeatureMatrix train, FeatureMatrix test, Map<String, Object> meta) {
    }

    /**
     * The dataset seen through a backbone: from the cache when it holds {@code key}, else computed and cached.
     *
     * @param describe the backbone's canonical text ({@link Backbone#describe})
     * @param key      identifies the features exactly: dataset name, backbone text, seed and a content hash
     */
    public static FeatureSet load(RawDataset raw, String describe, String key, long seed, Path cacheDir,
                                  Supplier<Computed> compute) {
        Path dir = cacheDir.resolve("features").resolve(sha(key).substring(0, 24));
        Path trainFile = dir.resolve("train.npy");
        Path testFile = dir.resolve("test.npy");
        Path metaFile = dir.resolve("meta.json");
        FeatureMatrix train;
        FeatureMatrix test;
        if (Files.exists(metaFile) && Files.exists(trainFile) && Files.exists(testFile)) {
            train = NpyReader.read(trainFile).toFeatureMatrix();
            test = NpyReader.read(testFile).toFeatureMatrix();
        } else {
            Computed c = compute.get();
            train = c.train();
            test = c.test();
            NpyWriter.writeFloat32(trainFile, train);
            NpyWriter.writeFloat32(testFile, test);
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("key", key);
            meta.put("dataset", raw.name());
            meta.put("backbone", describe);
            meta.put("seed", seed);
            meta.put("base_classes", raw.splits().base().length);
            meta.putAll(c.meta());
            AtomicFiles.write(metaFile, out -> out.write(JSON.writeValueAsBytes(meta)));
        }
        if (train.rows() != raw.train().size() || test.rows() != raw.test().size()) {
            throw new FsilException("feature cache " + dir + " does not match the dataset; delete it and retry");
        }
        return new FeatureSet(raw.name(), describe, key, raw.classes(),
                new LabeledData(train, raw.train().labels()), new LabeledData(test, raw.test().labels()), raw.splits());
    }

    static String sha(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
