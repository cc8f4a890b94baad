# frozen_string_literal: true

# Loaded with RUBYOPT=-r by scripts/compat/redmine.sh when REDMINE_SQL_LOG=1:
# raises Rails' log level to debug after initialisation so production.log
# records every SQL statement with its duration (Redmine's production
# environment logs at info).
require 'active_support'
require 'active_support/lazy_load_hooks'

ActiveSupport.on_load(:after_initialize) do
  Rails.logger.level = Logger::DEBUG
  ActiveRecord::Base.logger&.level = Logger::DEBUG
end
