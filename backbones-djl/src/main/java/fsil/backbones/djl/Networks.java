package fsil.backbones.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.LambdaBlock;
import ai.djl.nn.ParallelBlock;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

import java.util.Arrays;

/**
 * The networks as DJL blocks: an {@code n x c x h x w} input to an {@code n x d} feature matrix.
 * <ul>
 *   <li><b>conv4</b>: 4 x [3x3 conv, 64 filters, padding 1; batch norm; ReLU; 2x2 max pool], flattened. A max pool
 *       is skipped once the map is already 1 pixel high or wide (8x8 digits: 4x4, 2x2, 1x1, then no pool), so every
 *       input of at least 1x1 works; features = 64 x final h x final w (28x28: 64, 32x32: 256, 84x84: 1600).</li>
 *   <li><b>resnet12</b> (the few-shot ResNet-12 of TADAM / MetaOptNet / FEAT): 4 residual blocks, each three
 *       [3x3 conv, batch norm] with leaky ReLU (0.1) between, a 1x1 conv + batch norm shortcut, leaky ReLU after the
 *       sum, then a 2x2 max pool (skipped on a 1-pixel map as above); widths 64-160-320-640 x width, each rounded
 *       to a multiple of 16 ({@link Architecture#channels}); global average pooling, so features = 640 x width
 *       rounded (48 at 1/16).</li>
 *   <li><b>resnet18</b> with the small-image stem of the CIFAR variants (GP-Tree on CIFAR-100): 3x3 conv, 64 filters,
 *       stride 1, batch norm, ReLU, no initial max pool; 4 stages of 2 basic blocks (widths 64-128-256-512 x width,
 *       strides 1-2-2-2, 1x1 conv + batch norm shortcut where the shape changes); global average pooling, so
 *       features = 512 x width (rounded likewise).</li>
 * </ul>
 */
public final class Networks {

    private Networks() {
    }

    /** The feature extractor for images of the given shape. */
    public static Block features(Architecture a, int channels, int height, int width) {
        return switch (a.kind()) {
            case CONV4 -> conv4(a, height, width);
            case RESNET12 -> resnet12(a, height, width);
            case RESNET18 -> resnet18(a);
        };
    }

    /**
     * A convolution with DJL's default bias, although batch norm follows and cancels it: with {@code optBias(false)}
     * training gave NaN losses now and then, before channel counts were rounded to multiples of 16
     * ({@link Architecture#CHANNEL_BLOCK}, the cause); the bias was kept since.
     */
    private static Block conv(int filters, int kernel, int stride) {
        int pad = kernel / 2;
        return Conv2d.builder().setKernelShape(new Shape(kernel, kernel)).setFilters(filters)
                .optStride(new Shape(stride, stride)).optPadding(new Shape(pad, pad)).build();
    }

    private static Block bn() {
        return BatchNorm.builder().build();
    }

    private static Block conv4(Architecture a, int h, int w) {
        SequentialBlock net = new Chain();
        int filters = a.channels(64);
        for (int i = 0; i < 4; i++) {
            net.add(Conv2d.builder().setKernelShape(new Shape(3, 3)).setFilters(filters).optPadding(new Shape(1, 1))
                    .build());
            net.add(bn()).add(Activation.reluBlock());
            if (h >= 2 && w >= 2) {
                net.add(new MaxPool2x2());
                h /= 2;
                w /= 2;
            }
        }
        return net.add(Blocks.batchFlattenBlock());
    }

    /**
     * {@code main(x) + shortcut(x)}. The two branch outputs are closed once summed (neither is needed by the
     * backward pass of the addition; autograd keeps what the branches' own backward passes need), except an identity
     * shortcut's, which is the block's input. See {@link Chain} for why.
     */
    private static Block residual(Block main, Block shortcut) {
        boolean identity = !(shortcut instanceof SequentialBlock); // Blocks.identityBlock() returns its input
        return new ParallelBlock(list -> {
            NDArray a = list.get(0).singletonOrThrow();
            NDArray b = list.get(1).singletonOrThrow();
            NDArray sum = a.add(b);
            a.close();
            if (!identity) {
                b.close();
            }
            return new NDList(sum);
        }, Arrays.asList(main, shortcut));
    }

    /**
     * A {@link SequentialBlock} (same children, parameters, forward computation and saved form) that closes each
     * child's output as soon as the next child has consumed it, instead of keeping every intermediate tensor until
     * the caller's {@code NDManager} is closed. Closing the Java handle only drops a reference: a tensor that autograd
     * saved for the backward pass lives until that pass has used it, as in PyTorch. Why: with every intermediate kept
     * to the end of a batch, the whole batch's activation memory is freed at once, glibc returns it to the system,
     * and the next batch page-faults it in again (zeroed by the kernel): measured on ResNet-12 at width 1/4, batch 32,
     * about 3,200 minor page faults per extraction batch and 8,000 per training step, against 0 and 3,300 in PyTorch
     * from Python, and half PyTorch's images/s (backbones-djl/README.md, Throughput against PyTorch). Freed one by one,
     * the tensors' memory is reused by the next ones, as in PyTorch.
     */
    static final class Chain extends SequentialBlock {
        @Override
        protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs, boolean training,
                                         PairList<String, Object> params) {
            NDList current = inputs;
            for (Block block : children.values()) {
                NDList next = block.forward(parameterStore, current, training);
                if (current != inputs) {
                    for (NDArray a : current) {
                        if (!contains(next, a) && !contains(inputs, a)) {
                            a.close();
                        }
                    }
                }
                current = next;
            }
            return current;
        }

        private static boolean contains(NDList list, NDArray a) {
            for (NDArray b : list) {
                if (b == a) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * 2x2 max pooling with stride 2 (a last odd row or column dropped): DJL's max-pool block (libtorch's
     * {@code max_pool2d}) in training, whose backward pass sends a window's gradient to one element; in inference the
     * element-wise maximum of the window's four strided views, the same values bit for bit ({@code MaxPoolTest}), but
     * for the sign of a zero maximum held as both 0 and -0 in one window (no later sum can see it) and a NaN's
     * payload.
     * Why: libtorch 2.7.1's CPU {@code max_pool2d} took 4.3 ms on a 64 x 64 x 14 x 14 batch, the four views' maximum
     * 0.43 ms (one thread), and max pooling made up the whole gap between fsil's conv4 extraction and PyTorch 1.13's
     * (backbones-djl/README.md, <i>Throughput against PyTorch</i>). Same saved form as DJL's block (no parameters).
     */
    static final class MaxPool2x2 extends LambdaBlock {
        MaxPool2x2() {
            super(list -> new NDList(Pool.maxPool2d(list.singletonOrThrow(), new Shape(2, 2), new Shape(2, 2),
                    new Shape(0, 0), false)), "maxPool2d");
        }

        @Override
        protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs, boolean training,
                                         PairList<String, Object> params) {
            if (training) {
                return super.forwardInternal(parameterStore, inputs, true, params);
            }
            NDArray x = inputs.singletonOrThrow();
            long h = x.getShape().get(2) / 2 * 2;
            long w = x.getShape().get(3) / 2 * 2;
            try (NDArray a = x.get(new NDIndex(":, :, 0:{}:2, 0:{}:2", h, w));
                 NDArray b = x.get(new NDIndex(":, :, 0:{}:2, 1:{}:2", h, w));
                 NDArray c = x.get(new NDIndex(":, :, 1:{}:2, 0:{}:2", h, w));
                 NDArray d = x.get(new NDIndex(":, :, 1:{}:2, 1:{}:2", h, w));
                 NDArray ab = a.maximum(b);
                 NDArray cd = c.maximum(d)) {
                return new NDList(ab.maximum(cd));
            }
        }
    }

    private static Block resnet12(Architecture a, int h, int w) {
        SequentialBlock net = new Chain();
        for (int base : new int[]{64, 160, 320, 640}) {
            int c = a.channels(base);
            SequentialBlock main = new Chain()
                    .add(conv(c, 3, 1)).add(bn()).add(Activation.leakyReluBlock(0.1f))
                    .add(conv(c, 3, 1)).add(bn()).add(Activation.leakyReluBlock(0.1f))
                    .add(conv(c, 3, 1)).add(bn());
            SequentialBlock shortcut = new Chain().add(conv(c, 1, 1)).add(bn());
            net.add(residual(main, shortcut)).add(Activation.leakyReluBlock(0.1f));
            if (h >= 2 && w >= 2) {
                net.add(new MaxPool2x2());
                h /= 2;
                w /= 2;
            }
        }
        return net.add(Pool.globalAvgPool2dBlock());
    }

    private static Block resnet18(Architecture a) {
        SequentialBlock net = new Chain()
                .add(conv(a.channels(64), 3, 1)).add(bn()).add(Activation.reluBlock());
        int in = a.channels(64);
        int[] widths = {64, 128, 256, 512};
        for (int s = 0; s < 4; s++) {
            int c = a.channels(widths[s]);
            for (int b = 0; b < 2; b++) {
                int stride = s > 0 && b == 0 ? 2 : 1;
                SequentialBlock main = new Chain()
                        .add(conv(c, 3, stride)).add(bn()).add(Activation.reluBlock())
                        .add(conv(c, 3, 1)).add(bn());
                Block shortcut = stride != 1 || in != c
                        ? new Chain().add(conv(c, 1, stride)).add(bn()) : Blocks.identityBlock();
                net.add(residual(main, shortcut)).add(Activation.reluBlock());
                in = c;
            }
        }
        return net.add(Pool.globalAvgPool2dBlock());
    }
}
