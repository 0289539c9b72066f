################################################################################
#
# edml
#
################################################################################

# The release: make dist's archive of the commit meta-edml's recipe pins
# (its SRCREV), its sha256 in edml.hash. To build a checkout instead, give
# EDML_OVERRIDE_SRCDIR = /path/to/edml in local.mk.
EDML_VERSION = 0.2.0
EDML_SITE = https://github.com/edml/edml/releases/download/v$(EDML_VERSION)
# a checkout's own builds (Mesa's for make gpu-targets among them) stay behind
EDML_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = --exclude /build
EDML_LICENSE = Apache-2.0
EDML_LICENSE_FILES = LICENSE
EDML_INSTALL_STAGING = YES
EDML_INSTALL_TARGET = $(if $(BR2_PACKAGE_EDML_TOOLS),YES,NO)

# BOARD_TUNE= leaves the CPU flags to Buildroot's TARGET_CFLAGS (and the
# toolchain's defaults); the board gives edml its run-time data.
EDML_MAKE_OPTS = \
	$(TARGET_CONFIGURE_OPTS) \
	BOARD=$(call qstrip,$(BR2_PACKAGE_EDML_BOARD)) \
	PORT=$(if $(BR2_PACKAGE_EDML_GLES),linux,none) \
	BOARD_TUNE= \
	PREFIX=/usr \
	BUILD=build/buildroot

# the tools install-tools installs, and no others
EDML_TOOLS = $(addprefix build/buildroot/,edml-run edml-bench edml-demo)

ifeq ($(BR2_PACKAGE_EDML_GLES),y)
EDML_DEPENDENCIES += libegl libgles
endif

define EDML_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(EDML_MAKE_OPTS) lib \
		$(if $(BR2_PACKAGE_EDML_TOOLS),$(EDML_TOOLS))
endef

define EDML_INSTALL_STAGING_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(EDML_MAKE_OPTS) \
		DESTDIR=$(STAGING_DIR) install
endef

define EDML_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(EDML_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) install-tools
endef

$(eval $(generic-package))
