################################################################################
#
# edml-test-gl
#
################################################################################

EDML_TEST_GL_SOURCE =
EDML_TEST_GL_LICENSE = Apache-2.0
EDML_TEST_GL_PROVIDES = libegl libgles

$(eval $(generic-package))
