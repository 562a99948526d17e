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
}
