package fsil.data.split;

import fsil.api.InvalidDataException;
import fsil.data.FeatureSet;

import java.util.Arrays;

/**
 * Class orders for incremental protocols. The order for {@code order_seed} s over n classes is numpy's
 * {@code np.random.seed(s); np.random.permutation(n)} (UCIR/PyCIL), so results line up with those toolkits when
 * the class ids match. For built-in datasets the seed-1993 order is also committed as
 * {@code fsil/splits/<dataset>/order_1993.txt}; when such a file exists it is used (and a test checks it equals
 * the computed permutation).
 */
public final class ClassOrders {

    private ClassOrders() {
    }

    /**
     * The class order of a feature set: position -> class id.
     *
     * @param orderSeed 0..2^32-1
     */
    public static int[] of(FeatureSet features, long orderSeed) {
        int n = features.classes().size();
        String dataset = features.dataset();
        String file = "order_" + orderSeed + ".txt";
        if (!dataset.contains(":") && SplitFiles.hasResource(dataset, file)) {
            int[] order = SplitFiles.resourceInts(dataset, file);
            int[] sorted = order.clone();
            Arrays.sort(sorted);
            for (int i = 0; i < n; i++) {
                if (sorted.length != n || sorted[i] != i) {
                    throw new InvalidDataException("fsil/splits/" + dataset + "/" + file + " is not a permutation of"
                            + " the " + n + " classes");
                }
            }
            return order;
        }
        return NumpyLegacyRandom.classOrder(n, orderSeed);
    }
}
