package fsil.data;

import java.util.List;

/**
 * One row of the dataset catalog ({@code fsil datasets}).
 *
 * @param name        the name to pass to {@link Datasets#load}
 * @param description one line: what the data is, where it comes from
 * @param available   whether it can be loaded on this machine now
 * @param howToGet    when not available: why, and what to install; otherwise how it is obtained (embedded,
 *                    package files, generated and cached)
 * @param samples     total samples (train + test), or -1 when only known after generation
 * @param classes     number of classes, or -1 when only known after generation
 * @param dimension   raw input dimension, or -1 when only known after loading
 * @param trainSamples training samples, or -1
 * @param testSamples test samples, or -1
 * @param splits      the committed splits, e.g. {@code base/validation/novel 5/0/5}, {@code class order
 *                    (order_seed 1993)}, {@code fscil: 5 base + 5 sessions 1-way 5-shot}
 * @param license     licence and attribution
 */
public record DatasetInfo(String name, String description, boolean available, String howToGet, long samples,
                          int classes, int dimension, long trainSamples, long testSamples, List<String> splits,
                          String license) {

    public DatasetInfo {
        splits = List.copyOf(splits);
    }
}
