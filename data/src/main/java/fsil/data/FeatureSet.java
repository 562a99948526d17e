package fsil.data;

import fsil.api.ClassTable;
import fsil.api.LabeledData;

/**
 * A dataset seen through one backbone: the features every protocol works on.
 *
 * @param dataset  dataset name, e.g. {@code glyphs}
 * @param backbone backbone description, e.g. {@code identity} or {@code pretrained-mlp(512,256,128)}
 * @param key      identifies (dataset, backbone config, backbone seed) exactly; used for caches and run records
 * @param classes  class names (and groups, e.g. scripts) by class id
 * @param train    training samples of every class (few-shot episodes draw support and queries from train)
 * @param test     held-out test samples of every class (incremental protocols evaluate on these)
 * @param splits   the committed class splits
 */
public record FeatureSet(String dataset, String backbone, String key, ClassTable classes, LabeledData train,
                         LabeledData test, SplitSet splits) {

    public int dimension() {
        return train.dimension();
    }

    /**
     * A content hash of exactly what a run sees: lower-case hex SHA-256 over the backbone description, the class
     * names and groups, the train and test features and labels and the splits, in the byte layout documented in
     * {@link Fingerprints} (and data/DATA.md). The same data gives the same hash on every machine and run; one
     * changed feature value, label, class name or split gives another. The dataset name and {@link #key()} are
     * not part of it, so moving a feature directory does not change it. Cost: one pass over the features
     * (about 0.5 s for Fashion-MNIST's 70,000 x 784 floats); callers that need it repeatedly should keep it.
     */
    public String fingerprint() {
        return Fingerprints.of(this);
    }
}
