# SPDX-License-Identifier: Apache-2.0
# With meta-raspberrypi: its Mesa builds the v3d (Pi 4, 5) and vc4 drivers;
# edml's GPU path also needs EGL and GLES from it (edml loads libEGL and
# libGLESv2 at run time).
PACKAGECONFIG:append:rpi = " egl gles"
