package fsil.backbones.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.ParallelBlock;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;

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
        SequentialBlock net = new SequentialBlock();
        int filters = a.channels(64);
        for (int i = 0; i < 4; i++) {
            net.add(Conv2d.builder().setKernelShape(new Shape(3, 3)).setFilters(filters).optPadding(new Shape(1, 1))
                    .build());
            net.add(bn()).add(Activation.reluBlock());
            if (h >= 2 && w >= 2) {
                net.add(Pool.maxPool2dBlock(new Shape(2, 2), new Shape(2, 2)));
                h /= 2;
                w /= 2;
            }
        }
        return net.add(Blocks.batchFlattenBlock());
    }

    private static Block residual(Block main, Block shortcut) {
        return new ParallelBlock(list -> new NDList(list.get(0).singletonOrThrow()
                .add(list.get(1).singletonOrThrow())), Arrays.asList(main, shortcut));
    }

    private static Block resnet12(Architecture a, int h, int w) {
        SequentialBlock net = new SequentialBlock();
        for (int base : new int[]{64, 160, 320, 640}) {
            int c = a.channels(base);
            SequentialBlock main = new SequentialBlock()
                    .add(conv(c, 3, 1)).add(bn()).add(Activation.leakyReluBlock(0.1f))
                    .add(conv(c, 3, 1)).add(bn()).add(Activation.leakyReluBlock(0.1f))
                    .add(conv(c, 3, 1)).add(bn());
            SequentialBlock shortcut = new SequentialBlock().add(conv(c, 1, 1)).add(bn());
            net.add(residual(main, shortcut)).add(Activation.leakyReluBlock(0.1f));
            if (h >= 2 && w >= 2) {
                net.add(Pool.maxPool2dBlock(new Shape(2, 2), new Shape(2, 2)));
                h /= 2;
                w /= 2;
            }
        }
        return net.add(Pool.globalAvgPool2dBlock());
    }

    private static Block resnet18(Architecture a) {
        SequentialBlock net = new SequentialBlock()
                .add(conv(a.channels(64), 3, 1)).add(bn()).add(Activation.reluBlock());
        int in = a.channels(64);
        int[] widths = {64, 128, 256, 512};
        for (int s = 0; s < 4; s++) {
            int c = a.channels(widths[s]);
            for (int b = 0; b < 2; b++) {
                int stride = s > 0 && b == 0 ? 2 : 1;
                SequentialBlock main = new SequentialBlock()
                        .add(conv(c, 3, stride)).add(bn()).add(Activation.reluBlock())
                        .add(conv(c, 3, 1)).add(bn());
                Block shortcut = stride != 1 || in != c
                        ? new SequentialBlock().add(conv(c, 1, stride)).add(bn()) : Blocks.identityBlock();
                net.add(residual(main, shortcut)).add(Activation.reluBlock());
                in = c;
            }
        }
        return net.add(Pool.globalAvgPool2dBlock());
    }
}
