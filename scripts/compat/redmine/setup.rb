# frozen_string_literal: true

# Run by scripts/compat/redmine.sh through `rails runner`: enables the REST
# API, makes the admin account usable through it and prints its API key as
# "API_KEY=<key>".
Setting.rest_api_enabled = '1'
Setting.default_language = 'en'
# No e-mail notifications: there is no mail server, and rendering the mails
# (ActiveJob's async adapter, in the app server) costs more CPU than the
# requests themselves.
Setting.notified_events = []
raise 'rest_api_enabled not saved' unless Setting.find_by(name: 'rest_api_enabled')&.value == '1'

admin = User.find_by!(login: 'admin')
admin.must_change_passwd = false
admin.save!(validate: false)
key = admin.api_key # creates the token when missing
raise 'admin has no API key' unless key.is_a?(String) && key.size == 40

puts "API_KEY=#{key}"
